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
	export class SandboxContainer {
	    key: string;
	    id: string;
	    image: string;
	    state: string;
	    age_seconds: number;
	    idle_seconds: number;
	    workspace: string;
	    network: boolean;
	    mine: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SandboxContainer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.id = source["id"];
	        this.image = source["image"];
	        this.state = source["state"];
	        this.age_seconds = source["age_seconds"];
	        this.idle_seconds = source["idle_seconds"];
	        this.workspace = source["workspace"];
	        this.network = source["network"];
	        this.mine = source["mine"];
	    }
	}
	export class SandboxStatus {
	    mode: string;
	    fallback: string;
	    available: boolean;
	    socket: string;
	    rootless: boolean;
	    image: string;
	    image_ready: boolean;
	    runtime: string;
	    runner: string;
	    containers: SandboxContainer[];
	    warnings: string[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new SandboxStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.fallback = source["fallback"];
	        this.available = source["available"];
	        this.socket = source["socket"];
	        this.rootless = source["rootless"];
	        this.image = source["image"];
	        this.image_ready = source["image_ready"];
	        this.runtime = source["runtime"];
	        this.runner = source["runner"];
	        this.containers = this.convertValues(source["containers"], SandboxContainer);
	        this.warnings = source["warnings"];
	        this.error = source["error"];
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

export namespace custom {
	
	export class Definition {
	    name: string;
	    description: string;
	    parameters: any;
	    command: string;
	    timeout_seconds?: number;
	    enabled: boolean;
	    agent?: string;
	    env?: Record<string, string>;
	    env_keys?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Definition(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.parameters = source["parameters"];
	        this.command = source["command"];
	        this.timeout_seconds = source["timeout_seconds"];
	        this.enabled = source["enabled"];
	        this.agent = source["agent"];
	        this.env = source["env"];
	        this.env_keys = source["env_keys"];
	    }
	}

}

export namespace llm {
	
	export class Model {
	    id: string;
	
	    static createFrom(source: any = {}) {
	        return new Model(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
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

export namespace sessions {
	
	export class ToolCall {
	    id: string;
	    name: string;
	    arguments: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	    }
	}
	export class Message {
	    id: number;
	    role: string;
	    content: string;
	    tool_calls?: ToolCall[];
	    tool_call_id?: string;
	    name?: string;
	    created: string;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.tool_calls = this.convertValues(source["tool_calls"], ToolCall);
	        this.tool_call_id = source["tool_call_id"];
	        this.name = source["name"];
	        this.created = source["created"];
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
	export class Session {
	    id: string;
	    agent: string;
	    parent_id?: string;
	    title: string;
	    status: string;
	    prompt_tokens: number;
	    completion_tokens: number;
	    created: string;
	    updated: string;
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.parent_id = source["parent_id"];
	        this.title = source["title"];
	        this.status = source["status"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.completion_tokens = source["completion_tokens"];
	        this.created = source["created"];
	        this.updated = source["updated"];
	    }
	}

}

export namespace store {
	
	export class Agent {
	    key: string;
	    name: string;
	    type: string;
	    provider: string;
	    model: string;
	    profile: string;
	    allow: string[];
	    deny: string[];
	    workspace: string;
	    sandbox: boolean;
	    network: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Agent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.profile = source["profile"];
	        this.allow = source["allow"];
	        this.deny = source["deny"];
	        this.workspace = source["workspace"];
	        this.sandbox = source["sandbox"];
	        this.network = source["network"];
	    }
	}
	export class Provider {
	    name: string;
	    kind: string;
	    base_url: string;
	    api_key?: string;
	    has_key: boolean;
	    default_model: string;
	    tool_mode: string;
	
	    static createFrom(source: any = {}) {
	        return new Provider(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.base_url = source["base_url"];
	        this.api_key = source["api_key"];
	        this.has_key = source["has_key"];
	        this.default_model = source["default_model"];
	        this.tool_mode = source["tool_mode"];
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

