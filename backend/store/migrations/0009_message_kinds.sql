-- What a stored message is, beyond its role:
--   ''                  an ordinary conversation message
--   'notification'      a message the agent delivered to the user (message tool); shown in the
--                       history, never sent back to the model (its tool call already is)
--   'summary'           a system message summarising every earlier message up to covers_through
--                       (a messages.id); later turns send it instead of those messages
--   'subagent_results'  finished subagents announced to their parent as a user message
ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT ''
    CHECK (kind IN ('', 'notification', 'summary', 'subagent_results'));
ALTER TABLE messages ADD COLUMN covers_through INTEGER NOT NULL DEFAULT 0;
