// Shapes of the data the Go side (app.App) returns over the Wails bridge.
// They mirror the JSON tags of app.ToolInfo, app.Explanation and the
// "tool:event" payload; keep them in step with app/ when those change.

export type Danger = 'safe' | 'warning' | 'dangerous' | 'critical';
export type ToolClass = 'static' | 'engine' | 'runtime';

/** One JSON-schema property as the backend derives it from a Params struct. */
export interface SchemaProperty {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: SchemaProperty;
  default?: unknown;
  [key: string]: unknown;
}

/** The tool's parameter schema: an object schema. */
export interface ToolSchema {
  type?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
  [key: string]: unknown;
}

export interface ToolInfo {
  name: string;
  group: string;
  description: string;
  long_description: string;
  danger: Danger;
  requires_confirmation: boolean;
  class: ToolClass;
  allowed: boolean;
  /** Why the tool is blocked; the backend may omit it for allowed tools. */
  reason?: string;
  schema: ToolSchema | null;
}

export interface ExplanationStep {
  step: string;
  outcome: string;
  detail: string;
}

export interface Explanation {
  tool: string;
  /** The groups the tool belongs to, when the backend reports them. */
  groups?: string[];
  allowed: boolean;
  steps: ExplanationStep[];
}

export type ToolTopic = 'tool.start' | 'tool.complete' | 'tool.error';

export interface ToolEventPayload {
  call_id?: string;
  tool?: string;
  group?: string;
  agent?: string;
  session?: string;
  args?: unknown;
  code?: string;
  message?: string;
  duration_ms?: number;
}

export interface ToolEvent {
  topic: ToolTopic | string;
  time: string;
  payload: ToolEventPayload;
}
