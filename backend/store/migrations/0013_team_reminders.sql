-- A question a member asked the user is repeated as a reminder (OS
-- notification and the Teams tab) after this many seconds without an
-- answer, and again after as long; 0 turns reminders off.
ALTER TABLE teams ADD COLUMN ask_reminder_sec INTEGER NOT NULL DEFAULT 3600 CHECK (ask_reminder_sec >= 0);
