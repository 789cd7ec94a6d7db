export namespace app {
	
	export class CallResult {
	    status: string;
	    for_llm: string;
	    for_user: string;
	    code?: string;
	    message?: string;
	    duration_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new CallResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.for_llm = source["for_llm"];
	        this.for_user = source["for_user"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.duration_ms = source["duration_ms"];
	    }
	}

}

export namespace approvals {
	
	export class AuditEntry {
	    id: number;
	    request_id: string;
	    tool: string;
	    summary: string;
	    cwd?: string;
	    agent?: string;
	    session?: string;
	    decision: string;
	    decided_by: string;
	    reason?: string;
	    created: string;
	
	    static createFrom(source: any = {}) {
	        return new AuditEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.request_id = source["request_id"];
	        this.tool = source["tool"];
	        this.summary = source["summary"];
	        this.cwd = source["cwd"];
	        this.agent = source["agent"];
	        this.session = source["session"];
	        this.decision = source["decision"];
	        this.decided_by = source["decided_by"];
	        this.reason = source["reason"];
	        this.created = source["created"];
	    }
	}
	export class Pattern {
	    id: number;
	    tool: string;
	    agent?: string;
	    commands: string[][];
	    display: string;
	    created: string;
	
	    static createFrom(source: any = {}) {
	        return new Pattern(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.agent = source["agent"];
	        this.commands = source["commands"];
	        this.display = source["display"];
	        this.created = source["created"];
	    }
	}
	export class Request {
	    id: string;
	    tool: string;
	    summary: string;
	    commands?: string[][];
	    cwd?: string;
	    agent?: string;
	    session?: string;
	    reason: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    deadline: any;
	
	    static createFrom(source: any = {}) {
	        return new Request(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.summary = source["summary"];
	        this.commands = source["commands"];
	        this.cwd = source["cwd"];
	        this.agent = source["agent"];
	        this.session = source["session"];
	        this.reason = source["reason"];
	        this.created = this.convertValues(source["created"], null);
	        this.deadline = this.convertValues(source["deadline"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace policy {
	
	export class StepTrace {
	    step: string;
	    outcome: string;
	    detail: string;
	
	    static createFrom(source: any = {}) {
	        return new StepTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.step = source["step"];
	        this.outcome = source["outcome"];
	        this.detail = source["detail"];
	    }
	}
	export class Explanation {
	    tool: string;
	    groups: string[];
	    allowed: boolean;
	    steps: StepTrace[];
	
	    static createFrom(source: any = {}) {
	        return new Explanation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.groups = source["groups"];
	        this.allowed = source["allowed"];
	        this.steps = this.convertValues(source["steps"], StepTrace);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace warren {
	
	export class ToolInfo {
	    name: string;
	    group: string;
	    description: string;
	    long_description: string;
	    danger: string;
	    requires_confirmation: boolean;
	    class: string;
	    allowed: boolean;
	    reason?: string;
	    schema: any;
	
	    static createFrom(source: any = {}) {
	        return new ToolInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.group = source["group"];
	        this.description = source["description"];
	        this.long_description = source["long_description"];
	        this.danger = source["danger"];
	        this.requires_confirmation = source["requires_confirmation"];
	        this.class = source["class"];
	        this.allowed = source["allowed"];
	        this.reason = source["reason"];
	        this.schema = source["schema"];
	    }
	}

}

