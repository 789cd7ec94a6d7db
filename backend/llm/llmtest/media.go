package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
)

// The media endpoints answer every request the same way (they are not part
// of a cassette's turns): enough for a client to prove it sent the right
// request and handled a real answer.
func (s *Server) mediaRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/images/generations", s.serveImages)
	mux.HandleFunc("POST /v1/audio/speech", s.serveSpeech)
	mux.HandleFunc("POST /v1/audio/transcriptions", s.serveTranscription)
}

// PNG is the image /v1/images/generations returns: a real 2×2 PNG.
func PNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // encoding to memory does not fail
	return buf.Bytes()
}

// WAV is the audio /v1/audio/speech returns: 0.1 s of 8 kHz 16-bit mono silence.
func WAV() []byte {
	const rate, samples = 8000, 800
	var buf bytes.Buffer
	w := func(v any) { _ = binary.Write(&buf, binary.LittleEndian, v) } // to memory: no error
	buf.WriteString("RIFF")
	w(uint32(36 + samples*2))
	buf.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1))
	w(uint16(1))
	w(uint32(rate))
	w(uint32(rate * 2))
	w(uint16(2))
	w(uint16(16))
	buf.WriteString("data")
	w(uint32(samples * 2))
	buf.Write(make([]byte, samples*2))
	return buf.Bytes()
}

func (s *Server) serveImages(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, obj{"created": 0, "data": []obj{{"b64_json": base64.StdEncoding.EncodeToString(PNG()), "revised_prompt": "llmtest image"}}})
}

func (s *Server) serveSpeech(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "audio/wav")
	_, _ = w.Write(WAV())
}

// serveTranscription answers with the uploaded file's name and size, so a
// test sees which audio arrived.
func (s *Server) serveTranscription(w http.ResponseWriter, r *http.Request) {
	f, hdr, err := r.FormFile("file")
	if err != nil {
		http.Error(w, `{"error":{"message":"llmtest: no file part"}}`, http.StatusBadRequest)
		return
	}
	defer func() { _ = f.Close() }()
	n, _ := io.Copy(io.Discard, f)
	writeJSON(w, obj{"text": fmt.Sprintf("llmtest transcript of %s (%d bytes, model %s)", hdr.Filename, n, r.FormValue("model"))})
}
