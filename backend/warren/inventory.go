package warren

import (
	"context"
	"encoding/json"
)

// ToolInfo is one row of the tool inventory.
type ToolInfo struct {
	Name                 string          `json:"name"`
	Group                string          `json:"group"`
	Description          string          `json:"description"`
	LongDescription      string          `json:"long_description"`
	Danger               string          `json:"danger"`
	RequiresConfirmation bool            `json:"requires_confirmation"`
	Class                string          `json:"class"`
	Allowed              bool            `json:"allowed"`
	Reason               string          `json:"reason,omitempty"`
	Schema               json.RawMessage `json:"schema" ts_type:"any"`
}

// InventoryRequest selects the policy view of the inventory.
type InventoryRequest struct {
	// Profile overrides the active profile; empty uses it.
	Profile string
	// Agent applies that agent's policy lists; empty means none.
	Agent string
}

// Inventory lists every registered tool with whether policy allows it.
func (w *Warren) Inventory(ctx context.Context, req InventoryRequest) ([]ToolInfo, error) {
	if err := w.checkProfileAgent(ctx, req.Profile, req.Agent); err != nil {
		return nil, err
	}
	reg, err := w.registryFor(ctx, req.Agent)
	if err != nil {
		return nil, err
	}
	d, err := w.decision(reg, req.Profile, req.Agent)
	if err != nil {
		return nil, err
	}
	ts := reg.List()
	out := make([]ToolInfo, 0, len(ts))
	for _, t := range ts {
		info := t.Info()
		row := ToolInfo{
			Name: info.Name, Group: info.Group, Description: info.Description,
			LongDescription: info.LongDescription, Danger: info.Danger.String(),
			RequiresConfirmation: info.RequiresConfirmation, Class: info.Class.String(),
			Allowed: d.Allowed(info.Name), Schema: json.RawMessage(`{"type":"object"}`),
		}
		if info.Schema != nil {
			row.Schema = info.Schema.JSON()
		}
		if !row.Allowed {
			row.Reason = w.denialReason(reg, info.Name, req.Profile, req.Agent)
		}
		out = append(out, row)
	}
	return out, nil
}
