-- "native" tool calling, or "emulated" (tools described in the prompt and
-- parsed from the reply) for local models without tool support.
ALTER TABLE providers ADD COLUMN tool_mode TEXT NOT NULL DEFAULT 'native';
