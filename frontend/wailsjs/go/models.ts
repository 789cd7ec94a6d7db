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

