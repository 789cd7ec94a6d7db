package media

import (
	"context"
	_ "embed"

	"github.com/warren-dev/warren/tools"
)

//go:embed create_video.md
var createVideoDoc string

// CreateVideoParams are create_video's parameters.
type CreateVideoParams struct {
	Prompt string `json:"prompt" description:"What the video should show"`
}

// newCreateVideo registers the seed's tool so policies and agents can name
// it, but it refuses every call: there is no common OpenAI-compatible video
// endpoint to send it to.
func newCreateVideo(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "create_video", Group: "media_gen", LongDescription: createVideoDoc,
		Description: "Generate a video from a prompt (not available: needs a video provider kind Warren lacks).",
	}, func(context.Context, CreateVideoParams) (tools.Result, error) {
		return tools.Errorf(tools.CodeNotFound,
			"video generation is not available: OpenAI-compatible servers have no common video endpoint, and Warren has no "+
				"video provider kind (such as a MiniMax, Runway or Sora API client) yet. Make still images with create_image, "+
				"or use openai_compat_call with a provider whose own video API you know"), nil
	})
}
