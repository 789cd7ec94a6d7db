// Package skills finds, validates, searches and publishes agent skills in
// the Agent Skills format: a folder holding SKILL.md, whose frontmatter
// names the skill (lowercase words joined by hyphens, the folder's name)
// and says in one description when to use it; the body is the
// instructions, and other files in the folder are its resources.
package skills

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// FileName is a skill's instructions file.
const FileName = "SKILL.md"

// Limits of the format.
const (
	maxName        = 64
	maxDescription = 1024
	maxSkillFile   = 256 << 10
)

var validName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Source says where a skill was found, in the order folders are searched.
type Source string

// Sources, first wins when two hold a skill of the same name.
const (
	SourceWorkspace Source = "workspace"      // WORKSPACE/skills
	SourceAgents    Source = "workspace-dot"  // WORKSPACE/.agents/skills
	SourceHome      Source = "home"           // ~/.agents/skills
	SourceManaged   Source = "managed"        // published into Warren (versioned)
	sourceCandidate Source = "publish-source" // a folder being published
)

// Skill is one valid skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Dir is the skill's folder (absolute); {baseDir} in its body means it.
	Dir    string `json:"dir"`
	Source Source `json:"source"`
	// Version is the managed skill's version (0 for the others).
	Version int    `json:"version,omitempty"`
	Body    string `json:"-"`
	// Extra holds the other frontmatter fields (license, metadata …).
	Extra map[string]string `json:"extra,omitempty"`
}

// Problem is a folder that looked like a skill but is not a valid one.
type Problem struct {
	Dir string `json:"dir"`
	Err string `json:"error"`
}

// Load reads and validates the skill in dir.
func Load(dir string, src Source) (Skill, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", dir, err)
	}
	defer func() { _ = root.Close() }()
	fi, err := root.Stat(FileName)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: no %s in the folder", dir, FileName)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxSkillFile {
		return Skill{}, fmt.Errorf("skill %s: %s must be a regular file of at most %d KiB", dir, FileName, maxSkillFile>>10)
	}
	raw, err := root.ReadFile(FileName)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", dir, err)
	}
	s, err := Parse(string(raw))
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", dir, err)
	}
	if base := filepath.Base(dir); s.Name != base && src != SourceManaged {
		return Skill{}, fmt.Errorf("skill %s: its name %q must equal its folder's name %q", dir, s.Name, base)
	}
	s.Dir, s.Source = dir, src
	return s, nil
}

// Parse reads SKILL.md: "---" frontmatter with name and description, then
// the body.
func Parse(text string) (Skill, error) {
	if !utf8.ValidString(text) {
		return Skill{}, errors.New(FileName + " is not UTF-8 text")
	}
	text = strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff")
	if !strings.HasPrefix(text, "---\n") {
		return Skill{}, errors.New(FileName + " must start with a --- frontmatter block holding name and description")
	}
	end := strings.Index(text[4:], "\n---")
	if end < 0 {
		return Skill{}, errors.New(FileName + ": the frontmatter block has no closing ---")
	}
	fields, err := frontmatter(text[4 : 4+end])
	if err != nil {
		return Skill{}, err
	}
	body := text[4+end+4:]
	body = strings.TrimLeft(strings.TrimPrefix(body, "-"), "\n")
	s := Skill{Name: fields["name"], Description: fields["description"], Body: strings.TrimSpace(body)}
	delete(fields, "name")
	delete(fields, "description")
	if len(fields) > 0 {
		s.Extra = fields
	}
	switch {
	case s.Name == "":
		return Skill{}, errors.New(FileName + ": the frontmatter needs a name")
	case len(s.Name) > maxName || !validName.MatchString(s.Name):
		return Skill{}, fmt.Errorf("%s: name %q must be lowercase letters, digits and single hyphens (like pdf-forms), at most %d characters", FileName, s.Name, maxName)
	case s.Description == "":
		return Skill{}, errors.New(FileName + ": the frontmatter needs a description saying what the skill does and when to use it")
	case utf8.RuneCountInString(s.Description) > maxDescription:
		return Skill{}, fmt.Errorf("%s: the description is %d characters; at most %d", FileName, utf8.RuneCountInString(s.Description), maxDescription)
	}
	return s, nil
}

// frontmatter parses the simple YAML the format uses: "key: value" lines,
// quoted values, and ">" or "|" blocks of indented lines.
func frontmatter(block string) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(block, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue // nested values (metadata: …) are kept out of the flat fields
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s: frontmatter line %d (%q) is not key: value", FileName, i+1, line)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if val == ">" || val == "|" || val == ">-" || val == "|-" {
			var parts []string
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t") || strings.TrimSpace(lines[i+1]) == "") {
				i++
				parts = append(parts, strings.TrimSpace(lines[i]))
			}
			sep := " "
			if val[0] == '|' {
				sep = "\n"
			}
			val = strings.TrimSpace(strings.Join(parts, sep))
		} else if len(val) >= 2 && (val[0] == '"' && val[len(val)-1] == '"' || val[0] == '\'' && val[len(val)-1] == '\'') {
			val = val[1 : len(val)-1]
			if line[strings.Index(line, ":")+1:] != "" && strings.Contains(val, `\"`) {
				val = strings.ReplaceAll(val, `\"`, `"`)
			}
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s: frontmatter key %q appears twice", FileName, key)
		}
		out[key] = val
	}
	return out, nil
}

// Resolved is the body with {baseDir} replaced by the skill's folder.
func (s Skill) Resolved() string {
	return strings.ReplaceAll(s.Body, "{baseDir}", s.Dir)
}
