package web

import "testing"

func TestHiddenStyle(t *testing.T) {
	t.Parallel()
	hidden := []string{"display:none", "DISPLAY : NONE !important", "color:red; display:none", "visibility:hidden",
		"visibility: collapse", "opacity:0", "opacity: 0.0;", "font-size:0", "font-size: 0px", "width:0;height:0",
		"height: 0px; overflow: hidden", "position:absolute;left:-9999px", "position: fixed; top: -1000px",
		"clip: rect(0, 0, 0, 0); position:absolute", "clip-path: inset(50%)", "text-indent:-9999px", "transform: scale(0)"}
	visible := []string{"", "color:red", "display:block", "opacity:0.5", "font-size:0.9em", "width:100px", "height: 0.5em",
		"position:absolute; left:10px", "left:-9999px", "margin-left:-10px", "transform: scale(1.1)", "font-size: 10px"}
	for _, s := range hidden {
		if !hiddenStyle(s) {
			t.Errorf("%q counted as visible", s)
		}
	}
	for _, s := range visible {
		if hiddenStyle(s) {
			t.Errorf("%q counted as hidden", s)
		}
	}
}
