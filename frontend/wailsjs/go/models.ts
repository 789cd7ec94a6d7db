export namespace agent {
	
	export class Task {
	    id: string;
	    label: string;
	    task: string;
	    parent_session: string;
	    agent: string;
	    depth: number;
	    session?: string;
	    status: string;
	    result?: string;
	    error?: string;
	    // Go type: time
	    started: any;
	    // Go type: time
	    ended: any;
	    background: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Task(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	        this.task = source["task"];
	        this.parent_session = source["parent_session"];
	        this.agent = source["agent"];
	        this.depth = source["depth"];
	        this.session = source["session"];
	        this.status = source["status"];
	        this.result = source["result"];
	        this.error = source["error"];
	        this.started = this.convertValues(source["started"], null);
	        this.ended = this.convertValues(source["ended"], null);
	        this.background = source["background"];
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
	export class ChatRequest {
	    agent: string;
	    session: string;
	    prompt: string;
	    model: string;
	    replace_from: number;
	
	    static createFrom(source: any = {}) {
	        return new ChatRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.session = source["session"];
	        this.prompt = source["prompt"];
	        this.model = source["model"];
	        this.replace_from = source["replace_from"];
	    }
	}
	export class GraphVocabulary {
	    entity_types: string[];
	    relation_types: string[];
	
	    static createFrom(source: any = {}) {
	        return new GraphVocabulary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entity_types = source["entity_types"];
	        this.relation_types = source["relation_types"];
	    }
	}
	export class MCPAgentAccess {
	    also_allowed: boolean;
	    hint: string;
	    profile: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPAgentAccess(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.also_allowed = source["also_allowed"];
	        this.hint = source["hint"];
	        this.profile = source["profile"];
	    }
	}
	export class MCPResourceContent {
	    uri: string;
	    mime_type?: string;
	    text?: string;
	    blob_size?: number;
	
	    static createFrom(source: any = {}) {
	        return new MCPResourceContent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.mime_type = source["mime_type"];
	        this.text = source["text"];
	        this.blob_size = source["blob_size"];
	    }
	}
	export class MCPResourceList {
	    resources: mcp.Resource[];
	    templates: mcp.ResourceTemplate[];
	
	    static createFrom(source: any = {}) {
	        return new MCPResourceList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resources = this.convertValues(source["resources"], mcp.Resource);
	        this.templates = this.convertValues(source["templates"], mcp.ResourceTemplate);
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
	export class MCPTestTool {
	    name: string;
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTestTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	    }
	}
	export class MCPTestResult {
	    ok: boolean;
	    error?: string;
	    protocol: string;
	    server_name: string;
	    server_version: string;
	    tools: MCPTestTool[];
	    latency_ms: number;
	    warning?: string;
	    stderr: string[];
	
	    static createFrom(source: any = {}) {
	        return new MCPTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.error = source["error"];
	        this.protocol = source["protocol"];
	        this.server_name = source["server_name"];
	        this.server_version = source["server_version"];
	        this.tools = this.convertValues(source["tools"], MCPTestTool);
	        this.latency_ms = source["latency_ms"];
	        this.warning = source["warning"];
	        this.stderr = source["stderr"];
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
	
	export class MemoryEmbedderSetting {
	    embedder: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new MemoryEmbedderSetting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.embedder = source["embedder"];
	        this.model = source["model"];
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
	    problems: string[];
	
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
	        this.problems = source["problems"];
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
	export class SkillDetail {
	    skill: skills.Skill;
	    body: string;
	    grants: string[];
	
	    static createFrom(source: any = {}) {
	        return new SkillDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.skill = this.convertValues(source["skill"], skills.Skill);
	        this.body = source["body"];
	        this.grants = source["grants"];
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
	export class SkillList {
	    skills: skills.Skill[];
	    problems: skills.Problem[];
	
	    static createFrom(source: any = {}) {
	        return new SkillList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.skills = this.convertValues(source["skills"], skills.Skill);
	        this.problems = this.convertValues(source["problems"], skills.Problem);
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
	export class TeamTalk {
	    session: string;
	    run_id: string;
	    request: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TeamTalk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = source["session"];
	        this.run_id = source["run_id"];
	        this.request = source["request"];
	    }
	}
	export class TeamTaskInput {
	    subject: string;
	    description: string;
	    priority: number;
	    assignee: string;
	    blocked_by: string[];
	    require_approval: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TeamTaskInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.subject = source["subject"];
	        this.description = source["description"];
	        this.priority = source["priority"];
	        this.assignee = source["assignee"];
	        this.blocked_by = source["blocked_by"];
	        this.require_approval = source["require_approval"];
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
	export class Origin {
	    pid: number;
	    process: string;
	
	    static createFrom(source: any = {}) {
	        return new Origin(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pid = source["pid"];
	        this.process = source["process"];
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
	    call_id?: string;
	    reason: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    deadline: any;
	    origin?: Origin;
	
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
	        this.call_id = source["call_id"];
	        this.reason = source["reason"];
	        this.created = this.convertValues(source["created"], null);
	        this.deadline = this.convertValues(source["deadline"], null);
	        this.origin = this.convertValues(source["origin"], Origin);
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

export namespace cron {
	
	export class Job {
	    id: string;
	    agent: string;
	    name: string;
	    schedule: string;
	    prompt: string;
	    enabled: boolean;
	    // Go type: time
	    next_run: any;
	    // Go type: time
	    last_run: any;
	    last_status?: string;
	    last_result?: string;
	    last_session?: string;
	    created: string;
	    updated: string;
	
	    static createFrom(source: any = {}) {
	        return new Job(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.name = source["name"];
	        this.schedule = source["schedule"];
	        this.prompt = source["prompt"];
	        this.enabled = source["enabled"];
	        this.next_run = this.convertValues(source["next_run"], null);
	        this.last_run = this.convertValues(source["last_run"], null);
	        this.last_status = source["last_status"];
	        this.last_result = source["last_result"];
	        this.last_session = source["last_session"];
	        this.created = source["created"];
	        this.updated = source["updated"];
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

export namespace embed {
	
	export class Identity {
	    kind: string;
	    model: string;
	    dims: number;
	
	    static createFrom(source: any = {}) {
	        return new Identity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.model = source["model"];
	        this.dims = source["dims"];
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

export namespace mcp {
	
	export class AccessRequest {
	    id: number;
	    server: string;
	    scope: string;
	    subject: string;
	    tool_allow?: string[];
	    reason?: string;
	    status: string;
	    reviewer?: string;
	    review_note?: string;
	    created_at: string;
	    reviewed_at?: string;
	
	    static createFrom(source: any = {}) {
	        return new AccessRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.server = source["server"];
	        this.scope = source["scope"];
	        this.subject = source["subject"];
	        this.tool_allow = source["tool_allow"];
	        this.reason = source["reason"];
	        this.status = source["status"];
	        this.reviewer = source["reviewer"];
	        this.review_note = source["review_note"];
	        this.created_at = source["created_at"];
	        this.reviewed_at = source["reviewed_at"];
	    }
	}
	export class AgentConnection {
	    agent: string;
	    state: string;
	    last_error?: string;
	    pid?: number;
	
	    static createFrom(source: any = {}) {
	        return new AgentConnection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.state = source["state"];
	        this.last_error = source["last_error"];
	        this.pid = source["pid"];
	    }
	}
	export class Overrides {
	    env?: Record<string, string>;
	    headers?: Record<string, string>;
	    args?: string[];
	    call_timeout_seconds?: number;
	    env_keys?: string[];
	    header_keys?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Overrides(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.env = source["env"];
	        this.headers = source["headers"];
	        this.args = source["args"];
	        this.call_timeout_seconds = source["call_timeout_seconds"];
	        this.env_keys = source["env_keys"];
	        this.header_keys = source["header_keys"];
	    }
	}
	export class Grant {
	    server: string;
	    scope: string;
	    subject: string;
	    tool_allow?: string[];
	    tool_deny?: string[];
	    config_overrides: Overrides;
	    enabled: boolean;
	    created_at?: string;
	
	    static createFrom(source: any = {}) {
	        return new Grant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.scope = source["scope"];
	        this.subject = source["subject"];
	        this.tool_allow = source["tool_allow"];
	        this.tool_deny = source["tool_deny"];
	        this.config_overrides = this.convertValues(source["config_overrides"], Overrides);
	        this.enabled = source["enabled"];
	        this.created_at = source["created_at"];
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
	export class Icon {
	    src: string;
	    mimeType?: string;
	    sizes?: string[];
	    theme?: string;
	
	    static createFrom(source: any = {}) {
	        return new Icon(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.src = source["src"];
	        this.mimeType = source["mimeType"];
	        this.sizes = source["sizes"];
	        this.theme = source["theme"];
	    }
	}
	export class Meta {
	    ProgressToken: any;
	    AdditionalFields: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Meta(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ProgressToken = source["ProgressToken"];
	        this.AdditionalFields = source["AdditionalFields"];
	    }
	}
	
	export class PromptArgument {
	    name: string;
	    title?: string;
	    description?: string;
	    required?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArgument(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class Prompt {
	    _meta?: Meta;
	    name: string;
	    title?: string;
	    description?: string;
	    arguments?: PromptArgument[];
	    icons?: Icon[];
	
	    static createFrom(source: any = {}) {
	        return new Prompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArgument);
	        this.icons = this.convertValues(source["icons"], Icon);
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
	
	export class Annotations {
	    audience?: string[];
	    priority?: number;
	    lastModified?: string;
	
	    static createFrom(source: any = {}) {
	        return new Annotations(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.audience = source["audience"];
	        this.priority = source["priority"];
	        this.lastModified = source["lastModified"];
	    }
	}
	export class Resource {
	    // Go type: Annotations
	    annotations?: any;
	    _meta?: Meta;
	    uri: string;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    icons?: Icon[];
	    size?: number;
	
	    static createFrom(source: any = {}) {
	        return new Resource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.annotations = this.convertValues(source["annotations"], null);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.icons = this.convertValues(source["icons"], Icon);
	        this.size = source["size"];
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
	export class URITemplate {
	
	
	    static createFrom(source: any = {}) {
	        return new URITemplate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	
	    }
	}
	export class ResourceTemplate {
	    // Go type: Annotations
	    annotations?: any;
	    _meta?: Meta;
	    uriTemplate?: URITemplate;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    icons?: Icon[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceTemplate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.annotations = this.convertValues(source["annotations"], null);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.uriTemplate = this.convertValues(source["uriTemplate"], URITemplate);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.icons = this.convertValues(source["icons"], Icon);
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
	export class Server {
	    name: string;
	    transport: string;
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    cwd?: string;
	    url?: string;
	    headers?: Record<string, string>;
	    enabled: boolean;
	    tool_prefix?: string;
	    connect_timeout_ns?: number;
	    call_timeout_ns?: number;
	    tool_deny?: string[];
	    restricted: boolean;
	    deferred: boolean;
	    sandboxed: boolean;
	    sandbox_network: boolean;
	    env_keys?: string[];
	    header_keys?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Server(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.enabled = source["enabled"];
	        this.tool_prefix = source["tool_prefix"];
	        this.connect_timeout_ns = source["connect_timeout_ns"];
	        this.call_timeout_ns = source["call_timeout_ns"];
	        this.tool_deny = source["tool_deny"];
	        this.restricted = source["restricted"];
	        this.deferred = source["deferred"];
	        this.sandboxed = source["sandboxed"];
	        this.sandbox_network = source["sandbox_network"];
	        this.env_keys = source["env_keys"];
	        this.header_keys = source["header_keys"];
	    }
	}
	export class Status {
	    name: string;
	    transport: string;
	    enabled: boolean;
	    state: string;
	    protocol?: string;
	    via?: string;
	    server_name?: string;
	    server_version?: string;
	    tools: number;
	    resources: number;
	    prompts: number;
	    warning?: string;
	    last_error?: string;
	    // Go type: time
	    last_health: any;
	    latency_ms?: number;
	    restarts: number;
	    attempt?: number;
	    max_attempts?: number;
	    // Go type: time
	    next_retry: any;
	    // Go type: time
	    connected_at: any;
	    // Go type: time
	    started_at: any;
	    pid?: number;
	    agent_connections?: AgentConnection[];
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.enabled = source["enabled"];
	        this.state = source["state"];
	        this.protocol = source["protocol"];
	        this.via = source["via"];
	        this.server_name = source["server_name"];
	        this.server_version = source["server_version"];
	        this.tools = source["tools"];
	        this.resources = source["resources"];
	        this.prompts = source["prompts"];
	        this.warning = source["warning"];
	        this.last_error = source["last_error"];
	        this.last_health = this.convertValues(source["last_health"], null);
	        this.latency_ms = source["latency_ms"];
	        this.restarts = source["restarts"];
	        this.attempt = source["attempt"];
	        this.max_attempts = source["max_attempts"];
	        this.next_retry = this.convertValues(source["next_retry"], null);
	        this.connected_at = this.convertValues(source["connected_at"], null);
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.pid = source["pid"];
	        this.agent_connections = this.convertValues(source["agent_connections"], AgentConnection);
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

export namespace memory {
	
	export class Doc {
	    id: number;
	    agent: string;
	    user: string;
	    path: string;
	    source: string;
	    folder?: string;
	    content?: string;
	    hash: string;
	    version: number;
	    size: number;
	    chunks: number;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	
	    static createFrom(source: any = {}) {
	        return new Doc(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.user = source["user"];
	        this.path = source["path"];
	        this.source = source["source"];
	        this.folder = source["folder"];
	        this.content = source["content"];
	        this.hash = source["hash"];
	        this.version = source["version"];
	        this.size = source["size"];
	        this.chunks = source["chunks"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
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
	export class Entity {
	    id: number;
	    agent: string;
	    name: string;
	    type: string;
	    description?: string;
	    valid_from?: string;
	    valid_to?: string;
	    confidence: number;
	    source_chunk?: number;
	    review?: string;
	
	    static createFrom(source: any = {}) {
	        return new Entity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.description = source["description"];
	        this.valid_from = source["valid_from"];
	        this.valid_to = source["valid_to"];
	        this.confidence = source["confidence"];
	        this.source_chunk = source["source_chunk"];
	        this.review = source["review"];
	    }
	}
	export class Folder {
	    id: number;
	    agent: string;
	    path: string;
	    // Go type: time
	    added: any;
	    // Go type: time
	    scanned: any;
	    files: number;
	    skipped: number;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Folder(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.path = source["path"];
	        this.added = this.convertValues(source["added"], null);
	        this.scanned = this.convertValues(source["scanned"], null);
	        this.files = source["files"];
	        this.skipped = source["skipped"];
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
	export class Relation {
	    id: number;
	    src: number;
	    dst: number;
	    src_name: string;
	    dst_name: string;
	    type: string;
	    valid_from?: string;
	    valid_to?: string;
	    confidence: number;
	    source_chunk?: number;
	    depth: number;
	
	    static createFrom(source: any = {}) {
	        return new Relation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.src = source["src"];
	        this.dst = source["dst"];
	        this.src_name = source["src_name"];
	        this.dst_name = source["dst_name"];
	        this.type = source["type"];
	        this.valid_from = source["valid_from"];
	        this.valid_to = source["valid_to"];
	        this.confidence = source["confidence"];
	        this.source_chunk = source["source_chunk"];
	        this.depth = source["depth"];
	    }
	}
	export class Graph {
	    seeds: Entity[];
	    entities: Entity[];
	    relations: Relation[];
	    truncated?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Graph(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seeds = this.convertValues(source["seeds"], Entity);
	        this.entities = this.convertValues(source["entities"], Entity);
	        this.relations = this.convertValues(source["relations"], Relation);
	        this.truncated = source["truncated"];
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
	export class Hit {
	    path: string;
	    agent: string;
	    user: string;
	    start_line: number;
	    end_line: number;
	    heading?: string;
	    score: number;
	    keyword_rank: number;
	    vector_rank: number;
	    exact?: boolean;
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.agent = source["agent"];
	        this.user = source["user"];
	        this.start_line = source["start_line"];
	        this.end_line = source["end_line"];
	        this.heading = source["heading"];
	        this.score = source["score"];
	        this.keyword_rank = source["keyword_rank"];
	        this.vector_rank = source["vector_rank"];
	        this.exact = source["exact"];
	        this.snippet = source["snippet"];
	    }
	}
	export class IndexStatus {
	    docs: number;
	    chunks: number;
	    embedder?: embed.Identity;
	    embedded: number;
	    building: boolean;
	    ready?: embed.Identity;
	    index?: string;
	    last_error?: string;
	
	    static createFrom(source: any = {}) {
	        return new IndexStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.docs = source["docs"];
	        this.chunks = source["chunks"];
	        this.embedder = this.convertValues(source["embedder"], embed.Identity);
	        this.embedded = source["embedded"];
	        this.building = source["building"];
	        this.ready = this.convertValues(source["ready"], embed.Identity);
	        this.index = source["index"];
	        this.last_error = source["last_error"];
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
	
	export class Result {
	    mode: string;
	    hits: Hit[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.hits = this.convertValues(source["hits"], Hit);
	        this.note = source["note"];
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
	export class Version {
	    version: number;
	    content: string;
	    hash: string;
	    // Go type: time
	    saved: any;
	
	    static createFrom(source: any = {}) {
	        return new Version(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.content = source["content"];
	        this.hash = source["hash"];
	        this.saved = this.convertValues(source["saved"], null);
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

export namespace podman {
	
	export class Check {
	    name: string;
	    ok: boolean;
	    warn?: boolean;
	    detail: string;
	    fix?: string;
	
	    static createFrom(source: any = {}) {
	        return new Check(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.ok = source["ok"];
	        this.warn = source["warn"];
	        this.detail = source["detail"];
	        this.fix = source["fix"];
	    }
	}
	export class ImageReport {
	    image: string;
	    id: string;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new ImageReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.image = source["image"];
	        this.id = source["id"];
	        this.source = source["source"];
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
	    summary: string;
	    denied_by?: string;
	
	    static createFrom(source: any = {}) {
	        return new Explanation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.groups = source["groups"];
	        this.allowed = source["allowed"];
	        this.steps = this.convertValues(source["steps"], StepTrace);
	        this.summary = source["summary"];
	        this.denied_by = source["denied_by"];
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
	    kind?: string;
	    covers_through?: number;
	    model?: string;
	    incomplete?: string;
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
	        this.kind = source["kind"];
	        this.covers_through = source["covers_through"];
	        this.model = source["model"];
	        this.incomplete = source["incomplete"];
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
	    model: string;
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
	        this.model = source["model"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.completion_tokens = source["completion_tokens"];
	        this.created = source["created"];
	        this.updated = source["updated"];
	    }
	}
	export class SearchHit {
	    session: Session;
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], Session);
	        this.snippet = source["snippet"];
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

export namespace skills {
	
	export class Problem {
	    dir: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.error = source["error"];
	    }
	}
	export class Skill {
	    name: string;
	    description: string;
	    dir: string;
	    source: string;
	    version?: number;
	    extra?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Skill(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.dir = source["dir"];
	        this.source = source["source"];
	        this.version = source["version"];
	        this.extra = source["extra"];
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

export namespace teams {
	
	export class Attachment {
	    path: string;
	    added_by_kind: string;
	    added_by: string;
	    // Go type: time
	    created: any;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.added_by_kind = source["added_by_kind"];
	        this.added_by = source["added_by"];
	        this.created = this.convertValues(source["created"], null);
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
	export class Comment {
	    id: number;
	    type: string;
	    author_kind: string;
	    author: string;
	    text: string;
	    // Go type: time
	    created: any;
	
	    static createFrom(source: any = {}) {
	        return new Comment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.type = source["type"];
	        this.author_kind = source["author_kind"];
	        this.author = source["author"];
	        this.text = source["text"];
	        this.created = this.convertValues(source["created"], null);
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
	export class Event {
	    id: number;
	    team: string;
	    task?: string;
	    type: string;
	    actor_kind: string;
	    actor: string;
	    data: number[];
	    // Go type: time
	    time: any;
	
	    static createFrom(source: any = {}) {
	        return new Event(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.team = source["team"];
	        this.task = source["task"];
	        this.type = source["type"];
	        this.actor_kind = source["actor_kind"];
	        this.actor = source["actor"];
	        this.data = source["data"];
	        this.time = this.convertValues(source["time"], null);
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
	export class Member {
	    agent: string;
	    role: string;
	
	    static createFrom(source: any = {}) {
	        return new Member(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.role = source["role"];
	    }
	}
	export class Settings {
	    blocker_escalation: boolean;
	    task_timeout_sec: number;
	    stale_pending_sec: number;
	    stale_review_sec: number;
	    max_dispatches: number;
	    max_working: number;
	    ask_reminder_sec: number;
	    allow_member_requests: boolean;
	    paused: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.blocker_escalation = source["blocker_escalation"];
	        this.task_timeout_sec = source["task_timeout_sec"];
	        this.stale_pending_sec = source["stale_pending_sec"];
	        this.stale_review_sec = source["stale_review_sec"];
	        this.max_dispatches = source["max_dispatches"];
	        this.max_working = source["max_working"];
	        this.ask_reminder_sec = source["ask_reminder_sec"];
	        this.allow_member_requests = source["allow_member_requests"];
	        this.paused = source["paused"];
	    }
	}
	export class Task {
	    id: string;
	    team: string;
	    subject: string;
	    description?: string;
	    priority: number;
	    state: string;
	    owner?: string;
	    require_approval?: boolean;
	    result?: string;
	    progress: number;
	    step?: string;
	    blocked_by?: string[];
	    hold?: string;
	    reason?: string;
	    escalate_to?: string;
	    question?: string;
	    answer?: string;
	    dispatch_count: number;
	    // Go type: time
	    dispatched_at: any;
	    // Go type: time
	    heartbeat_at: any;
	    created_by_kind: string;
	    created_by: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    // Go type: time
	    state_changed: any;
	    // Go type: time
	    finished: any;
	    comments: number;
	    attachments: number;
	
	    static createFrom(source: any = {}) {
	        return new Task(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.team = source["team"];
	        this.subject = source["subject"];
	        this.description = source["description"];
	        this.priority = source["priority"];
	        this.state = source["state"];
	        this.owner = source["owner"];
	        this.require_approval = source["require_approval"];
	        this.result = source["result"];
	        this.progress = source["progress"];
	        this.step = source["step"];
	        this.blocked_by = source["blocked_by"];
	        this.hold = source["hold"];
	        this.reason = source["reason"];
	        this.escalate_to = source["escalate_to"];
	        this.question = source["question"];
	        this.answer = source["answer"];
	        this.dispatch_count = source["dispatch_count"];
	        this.dispatched_at = this.convertValues(source["dispatched_at"], null);
	        this.heartbeat_at = this.convertValues(source["heartbeat_at"], null);
	        this.created_by_kind = source["created_by_kind"];
	        this.created_by = source["created_by"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.state_changed = this.convertValues(source["state_changed"], null);
	        this.finished = this.convertValues(source["finished"], null);
	        this.comments = source["comments"];
	        this.attachments = source["attachments"];
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
	export class TaskDetail {
	    task: Task;
	    dependents?: string[];
	    comments: Comment[];
	    attachments: Attachment[];
	    events: Event[];
	
	    static createFrom(source: any = {}) {
	        return new TaskDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task = this.convertValues(source["task"], Task);
	        this.dependents = source["dependents"];
	        this.comments = this.convertValues(source["comments"], Comment);
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	        this.events = this.convertValues(source["events"], Event);
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
	export class Team {
	    key: string;
	    name: string;
	    lead: string;
	    lead_role: string;
	    workspace: string;
	    members: Member[];
	    settings: Settings;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	
	    static createFrom(source: any = {}) {
	        return new Team(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.name = source["name"];
	        this.lead = source["lead"];
	        this.lead_role = source["lead_role"];
	        this.workspace = source["workspace"];
	        this.members = this.convertValues(source["members"], Member);
	        this.settings = this.convertValues(source["settings"], Settings);
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
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
	
	export class Attachment {
	    path: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	    }
	}
	export class ClaudeDesktopOffer {
	    path: string;
	    servers: string[];
	
	    static createFrom(source: any = {}) {
	        return new ClaudeDesktopOffer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.servers = source["servers"];
	    }
	}
	export class ContextFileView {
	    name: string;
	    purpose: string;
	    scope: string;
	    content: string;
	    exists: boolean;
	    template: boolean;
	    in_prompt: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ContextFileView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.purpose = source["purpose"];
	        this.scope = source["scope"];
	        this.content = source["content"];
	        this.exists = source["exists"];
	        this.template = source["template"];
	        this.in_prompt = source["in_prompt"];
	    }
	}
	export class CronJobInput {
	    agent: string;
	    name: string;
	    schedule: string;
	    prompt: string;
	
	    static createFrom(source: any = {}) {
	        return new CronJobInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.name = source["name"];
	        this.schedule = source["schedule"];
	        this.prompt = source["prompt"];
	    }
	}
	export class ElicitField {
	    name: string;
	    title?: string;
	    description?: string;
	    type: string;
	    enum?: string[];
	    required?: boolean;
	    default?: any;
	
	    static createFrom(source: any = {}) {
	        return new ElicitField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.type = source["type"];
	        this.enum = source["enum"];
	        this.required = source["required"];
	        this.default = source["default"];
	    }
	}
	export class ElicitationAnswer {
	    id: string;
	    action: string;
	    content?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new ElicitationAnswer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.action = source["action"];
	        this.content = source["content"];
	    }
	}
	export class ElicitationRequest {
	    id: string;
	    server: string;
	    agent?: string;
	    session?: string;
	    call_id?: string;
	    message: string;
	    schema: number[];
	    fields: ElicitField[];
	    // Go type: time
	    created: any;
	
	    static createFrom(source: any = {}) {
	        return new ElicitationRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.server = source["server"];
	        this.agent = source["agent"];
	        this.session = source["session"];
	        this.call_id = source["call_id"];
	        this.message = source["message"];
	        this.schema = source["schema"];
	        this.fields = this.convertValues(source["fields"], ElicitField);
	        this.created = this.convertValues(source["created"], null);
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
	export class MCPChatPrompt {
	    server: string;
	    prompt: mcp.Prompt;
	
	    static createFrom(source: any = {}) {
	        return new MCPChatPrompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.prompt = this.convertValues(source["prompt"], mcp.Prompt);
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
	export class MCPChatResource {
	    server: string;
	    resource: mcp.Resource;
	
	    static createFrom(source: any = {}) {
	        return new MCPChatResource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.resource = this.convertValues(source["resource"], mcp.Resource);
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
	export class MCPImportChoice {
	    name: string;
	    enabled: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPImportChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.enabled = source["enabled"];
	    }
	}
	export class MCPPreviewServer {
	    name: string;
	    transport: string;
	    command?: string;
	    args: string[];
	    cwd?: string;
	    url?: string;
	    env_keys: string[];
	    header_keys: string[];
	    downloads?: string;
	    disabled_in_file?: boolean;
	    exists: boolean;
	    enable: boolean;
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new MCPPreviewServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.env_keys = source["env_keys"];
	        this.header_keys = source["header_keys"];
	        this.downloads = source["downloads"];
	        this.disabled_in_file = source["disabled_in_file"];
	        this.exists = source["exists"];
	        this.enable = source["enable"];
	        this.notes = source["notes"];
	    }
	}
	export class MCPImportPreview {
	    client?: string;
	    path?: string;
	    servers: MCPPreviewServer[];
	    warnings: string[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPImportPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.path = source["path"];
	        this.servers = this.convertValues(source["servers"], MCPPreviewServer);
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
	export class MCPImportReport {
	    added: string[];
	    replaced: string[];
	    skipped: string[];
	    disabled: string[];
	    warnings: string[];
	
	    static createFrom(source: any = {}) {
	        return new MCPImportReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = source["added"];
	        this.replaced = source["replaced"];
	        this.skipped = source["skipped"];
	        this.disabled = source["disabled"];
	        this.warnings = source["warnings"];
	    }
	}
	export class MCPImportRequest {
	    text?: string;
	    path?: string;
	    servers: MCPImportChoice[];
	    offer: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPImportRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.path = source["path"];
	        this.servers = this.convertValues(source["servers"], MCPImportChoice);
	        this.offer = source["offer"];
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
	
	export class MCPServerView {
	    server: mcp.Server;
	    status: mcp.Status;
	    source?: string;
	    writer_gone?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = this.convertValues(source["server"], mcp.Server);
	        this.status = this.convertValues(source["status"], mcp.Status);
	        this.source = source["source"];
	        this.writer_gone = source["writer_gone"];
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
	export class MCPToolView {
	    name: string;
	    registered_as: string;
	    description: string;
	    enabled: boolean;
	    danger: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPToolView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.registered_as = source["registered_as"];
	        this.description = source["description"];
	        this.enabled = source["enabled"];
	        this.danger = source["danger"];
	    }
	}
	export class ModelChoices {
	    provider: string;
	    default: string;
	    models: string[];
	    problem?: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelChoices(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.default = source["default"];
	        this.models = source["models"];
	        this.problem = source["problem"];
	    }
	}
	export class ModelServer {
	    kind: string;
	    label: string;
	    base_url: string;
	    models: llm.Model[];
	    needs_key: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ModelServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.label = source["label"];
	        this.base_url = source["base_url"];
	        this.models = this.convertValues(source["models"], llm.Model);
	        this.needs_key = source["needs_key"];
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
	export class SandboxTest {
	    // Go type: time
	    at: any;
	    ok: boolean;
	    checks: podman.Check[];
	    failed?: podman.Check;
	    network_failed?: podman.Check;
	    action?: string;
	    seconds: number;
	
	    static createFrom(source: any = {}) {
	        return new SandboxTest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = this.convertValues(source["at"], null);
	        this.ok = source["ok"];
	        this.checks = this.convertValues(source["checks"], podman.Check);
	        this.failed = this.convertValues(source["failed"], podman.Check);
	        this.network_failed = this.convertValues(source["network_failed"], podman.Check);
	        this.action = source["action"];
	        this.seconds = source["seconds"];
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
	export class Setting {
	    key: string;
	    value: string;
	    default: string;
	    description: string;
	    secret?: boolean;
	    bool?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Setting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.default = source["default"];
	        this.description = source["description"];
	        this.secret = source["secret"];
	        this.bool = source["bool"];
	    }
	}
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

