package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

// SummaryPrefix starts the system message that stands in for summarised turns.
const SummaryPrefix = "[Summary of the earlier conversation]\n"

// summaryInstructions is the system prompt of the one summarising call.
const summaryInstructions = `You summarise the earlier part of a conversation between a user and an AI agent, so the agent can continue without it.
Keep what the agent needs: the user's goals, instructions and preferences; decisions made; facts learned (file names, paths, values, commands and what tool calls returned); work done and work still open.
Write plain, concise prose or bullet points. Do not add a preamble, do not address the user, do not invent anything.`

// Transcript limits: one message's text, and the share of the model's
// budget the whole transcript may take (in tokens, ~4 bytes each).
const (
	maxTranscriptMessage = 2000
	bytesPerTokenApprox  = 4
)

// compact keeps the conversation inside budget by summarising its oldest
// earlier turns with one call to the run's model. The summary is stored,
// so later turns reuse it; recent turns and the current one stay verbatim.
// Turns are cut only where a user message starts one, so a tool call never
// loses its result. If the call fails, the turn falls back to trimming.
func (l *Loop) compact(ctx context.Context, req RunRequest, sid string, conv *conversation, budget int, res *Result, on func(Event)) {
	if conv.summaryFailed || llm.EstimateTokens(conv.messages(), nil) <= budget {
		return
	}
	cut := conv.summaryCut(budget / 2)
	if cut == 0 {
		return // nothing earlier to summarise: Trim drops this turn's oldest tool groups
	}
	text, usage, err := l.summarise(ctx, req, conv.summary, conv.prior[:cut], budget)
	if usage != (llm.Usage{}) {
		l.addUsage(ctx, sid, res, usage, on)
	}
	if err != nil {
		conv.summaryFailed = true
		note := fmt.Sprintf("could not summarise the earlier conversation (%v); trimming the oldest messages instead", err)
		l.log().Warn("context summary failed", "session", sid, "err", err)
		on(Event{Kind: EventNotice, Session: sid, Text: note})
		return
	}
	sum := llm.Message{Role: llm.RoleSystem, Content: SummaryPrefix + text}
	stored := sessions.Message{Role: string(llm.RoleSystem), Content: sum.Content, Kind: sessions.KindSummary, CoversThrough: conv.priorIDs[cut-1]}
	if err := l.d.Sessions.Append(ctx, sid, stored); err != nil {
		// This turn still uses it; the next one summarises again.
		l.log().Warn("context summary not stored", "session", sid, "err", err)
	}
	conv.summary, conv.prior, conv.priorIDs = &sum, conv.prior[cut:], conv.priorIDs[cut:]
	on(Event{Kind: EventNotice, Session: sid, Text: fmt.Sprintf("summarised %d earlier messages to fit the model's context", cut)})
}

// summaryCut returns how many prior messages to summarise: all but the
// newest whole turns that fit in target together with the system prompt
// and the current turn. Zero means there is nothing to summarise.
func (c *conversation) summaryCut(target int) int {
	used := llm.EstimateTokens(append([]llm.Message{c.system}, c.current...), nil)
	cut := len(c.prior)
	for cut > 0 {
		start := cut - 1
		for start > 0 && c.prior[start].Role != llm.RoleUser {
			start--
		}
		n := llm.EstimateTokens(c.prior[start:cut], nil)
		if used+n > target {
			break
		}
		used += n
		cut = start
	}
	return cut
}

// summarise asks the run's model for a summary of the previous summary
// (if any) and msgs.
func (l *Loop) summarise(ctx context.Context, req RunRequest, previous *llm.Message, msgs []llm.Message, budget int) (string, llm.Usage, error) {
	transcript := renderTranscript(previous, msgs, budget*bytesPerTokenApprox/2)
	resp, err := req.Provider.Stream(ctx, llm.Request{Model: req.Model, Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: summaryInstructions},
		{Role: llm.RoleUser, Content: "Summarise this conversation:\n\n" + transcript},
	}}, nil)
	if err != nil {
		return "", llm.Usage{}, fmt.Errorf("%s: %w", req.Provider.Name(), err)
	}
	text := strings.TrimSpace(resp.Message.Content)
	if text == "" {
		return "", resp.Usage, errors.New("the model returned an empty summary")
	}
	return text, resp.Usage, nil
}

// renderTranscript writes messages as labelled plain text, each clipped,
// and the whole cut in the middle when it exceeds maxBytes (the start holds
// the goals, the end the latest state).
func renderTranscript(previous *llm.Message, msgs []llm.Message, maxBytes int) string {
	var b strings.Builder
	if previous != nil {
		fmt.Fprintf(&b, "[earlier summary]\n%s\n\n", strings.TrimPrefix(previous.Content, SummaryPrefix))
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleTool:
			fmt.Fprintf(&b, "[result of %s]\n%s\n\n", m.Name, tools.Clip(m.Content, maxTranscriptMessage))
		case llm.RoleAssistant:
			if m.Content != "" {
				fmt.Fprintf(&b, "[assistant]\n%s\n\n", tools.Clip(m.Content, maxTranscriptMessage))
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "[assistant called %s] %s\n\n", tc.Name, tools.Clip(tc.Arguments, maxTranscriptMessage/4))
			}
		default:
			fmt.Fprintf(&b, "[%s]\n%s\n\n", m.Role, tools.Clip(m.Content, maxTranscriptMessage))
		}
	}
	s := strings.TrimSpace(b.String())
	if maxBytes <= 0 || len(s) <= maxBytes {
		return s
	}
	half := maxBytes / 2
	head, tail := []rune(s[:half]), []rune(s[len(s)-half:])
	// Cutting bytes may split a rune; dropping one edge rune each side keeps both halves valid text.
	return string(head[:max(len(head)-1, 0)]) + fmt.Sprintf("\n\n[… %d bytes omitted …]\n\n", len(s)-2*half) + string(tail[min(1, len(tail)):])
}
