package media

import (
	"context"
	_ "embed"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed create_image.md
var createImageDoc string

// sizeRE accepts WIDTHxHEIGHT sizes; the provider decides which it supports.
var sizeRE = regexp.MustCompile(`^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$`)

// CreateImageParams are create_image's parameters.
type CreateImageParams struct {
	Prompt string `json:"prompt" description:"What the image should show"`
	Size   string `json:"size,omitempty" description:"WIDTHxHEIGHT, e.g. 1024x1024 (default), 1792x1024, or auto"`
}

func newCreateImage(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "create_image", Group: "media_gen", LongDescription: createImageDoc, Danger: tools.DangerWarning,
		Description: "Generate an image from a text prompt; it is saved in the workspace's media/ folder.",
	}, e.createImage)
}

func (e *env) createImage(ctx context.Context, p CreateImageParams) (tools.Result, error) {
	prompt := strings.TrimSpace(p.Prompt)
	if prompt == "" {
		return tools.Errorf(tools.CodeValidation, "prompt is required"), nil
	}
	size := p.Size
	if size == "" {
		size = "1024x1024"
	}
	if size != "auto" && !sizeRE.MatchString(size) {
		return tools.Errorf(tools.CodeValidation, "size %q: use WIDTHxHEIGHT such as 1024x1024, or auto", p.Size), nil
	}
	var img []byte
	used, fail, ok := e.runChain(ctx, KindImage, func(ctx context.Context, pr Provider, model string) error {
		if pr.Kind == ProviderAnthropic {
			return errors.New("an Anthropic provider does not generate images")
		}
		var err error
		img, err = e.generateImage(ctx, pr, model, prompt, size)
		return err
	})
	if !ok {
		return fail, nil
	}
	display, mt, fail, ok := e.saveOutput(ctx, "image", img)
	if !ok {
		return fail, nil
	}
	return saved("image", display, mt, len(img), used), nil
}

// generateImage asks one provider for one image, as base64 or a URL.
func (e *env) generateImage(ctx context.Context, p Provider, model, prompt, size string) ([]byte, error) {
	req := map[string]any{"model": model, "prompt": prompt, "size": size, "n": 1}
	// gpt-image models always answer in base64 and refuse the parameter.
	if !strings.HasPrefix(model, "gpt-image") {
		req["response_format"] = "b64_json"
	}
	var out struct {
		Data []struct {
			B64 string `json:"b64_json"`
			URL string `json:"url"`
		} `json:"data"`
	}
	if err := e.postJSON(ctx, p, "/images/generations", req, &out); err != nil {
		return nil, err
	}
	if len(out.Data) == 0 {
		return nil, errors.New("the answer holds no image")
	}
	var img []byte
	switch d := out.Data[0]; {
	case d.B64 != "":
		var err error
		if img, err = base64.StdEncoding.DecodeString(d.B64); err != nil {
			return nil, errors.New("the image is not valid base64")
		}
	case d.URL != "":
		// Some servers answer with a link to the image on themselves. A link
		// elsewhere is refused: the answer must not steer Warren to fetch
		// any address it likes (the key is never sent with it either).
		if !sameHost(d.URL, p.BaseURL) {
			return nil, errors.New("the answer links to an image on another host; ask for b64_json output (model " + model + ")")
		}
		resp, err := e.send(ctx, Provider{Kind: p.Kind, BaseURL: d.URL}, http.MethodGet, "", "", nil)
		if err != nil {
			return nil, err
		}
		defer func() { _ = resp.Body.Close() }()
		if img, err = readCapped(resp.Body, maxAnswer); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("the answer holds neither b64_json nor url")
	}
	if mt := Sniff(img); !strings.HasPrefix(mt, "image/") {
		return nil, errors.New("the answer is " + mt + ", not an image")
	}
	return img, nil
}

// sameHost reports whether two URLs name the same scheme and host:port.
func sameHost(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Host != "" && ua.Scheme == ub.Scheme && ua.Host == ub.Host
}
