-- The chat (issue 15):
--   messages.model       which model wrote an assistant message ('' for other messages)
--   messages.incomplete  why a stored reply is partial: 'stopped' (the user stopped the turn),
--                        'dropped' (the connection broke off), 'error' (another failure);
--                        '' for a complete message
--   sessions.model       the model chosen for the chat in its header ('' = the agent's model)
ALTER TABLE messages ADD COLUMN model TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN incomplete TEXT NOT NULL DEFAULT ''
    CHECK (incomplete IN ('', 'stopped', 'dropped', 'error'));
ALTER TABLE sessions ADD COLUMN model TEXT NOT NULL DEFAULT '';
