package media

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed read_image.md
var readImageDoc string

// maxImageBytes caps an image sent to a vision model.
const maxImageBytes = 20 << 20

// defaultImagePrompt is asked when the call gives no prompt.
const defaultImagePrompt = "Describe this image in detail, including any text it contains."

// ReadImageParams are read_image's parameters.
type ReadImageParams struct {
	Path   string `json:"path" description:"Workspace path of a PNG, JPEG, GIF or WebP image"`
	Prompt string `json:"prompt,omitempty" description:"What to ask about the image (default: describe it, including its text)"`
}

func newReadImage(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "read_image", Group: "media_read", LongDescription: readImageDoc,
		Description: "Describe or answer a question about a workspace image with a vision model.",
	}, e.readImage)
}

func (e *env) readImage(ctx context.Context, p ReadImageParams) (tools.Result, error) {
	data, display, fail, ok := e.readFile(ctx, p.Path, maxImageBytes)
	if !ok {
		return fail, nil
	}
	mt := Sniff(data)
	if !isVisionImage(mt) {
		return tools.Errorf(tools.CodeValidation, "%s is %s, not a PNG, JPEG, GIF or WebP image", display, mt), nil
	}
	prompt := strings.TrimSpace(p.Prompt)
	if prompt == "" {
		prompt = defaultImagePrompt
	}
	answer, used, fail, ok := e.describe(ctx, prompt, []picture{{mime: mt, data: data}})
	if !ok {
		return fail, nil
	}
	return tools.Text(fmt.Sprintf("%s (via %s):\n%s", display, used, strings.TrimSpace(answer))), nil
}

func isVisionImage(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}
