package rules

import (
	"reflect"
	"testing"

	"github.com/docscore/docscore/scoring/schema"
)

func TestWithoutBadRows(t *testing.T) {
	s := schema.Default()
	tests := []struct {
		name      string
		src       string
		wantLines []int    // the rows kept
		wantErrs  []string // the errors of the rows left out
		wantOK    bool
	}{
		{
			name:      "a clean file is kept whole",
			src:       ruleFile(equivHeader, "| title | Sig. / Sig | Signore | settled | w |", "| title | Dott. | Dottore | OPEN | w |"),
			wantLines: []int{4, 5}, wantOK: true,
		},
		{
			name:      "an unknown status leaves its row out",
			src:       ruleFile(equivHeader, "| title | Sig. / Sig | Signore | settled | w |", "| title | Dott. | Dottore | maybe | w |", "| title | Avv. | Avvocato | OPEN | w |"),
			wantLines: []int{4, 6},
			wantErrs:  []string{"check.md:5:29: unknown status \"maybe\" (expected settled or OPEN)\n    5 | | title | Dott. | Dottore | maybe | w |\n      |                             ^"},
			wantOK:    true,
		},
		{
			name:      "an unknown field leaves its row out",
			src:       ruleFile(equivHeader, "| nosuch | Sig. | Signore | settled | w |", "| title | Avv. | Avvocato | OPEN | w |"),
			wantLines: []int{5},
			wantErrs:  []string{"check.md:4:3: unknown field \"nosuch\""},
			wantOK:    true,
		},
		{
			name:     "an unclosed code fence leaves the whole file out",
			src:      ruleFile(equivHeader, "| title | Avv. | Avvocato | OPEN | w |") + "```\n",
			wantErrs: []string{"check.md:5: "},
			wantOK:   false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Parse("check.md", []byte(tt.src))
			good, errs, ok := f.WithoutBadRows(s)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v (errors %v)", ok, tt.wantOK, errs)
			}
			if len(errs) != len(tt.wantErrs) {
				t.Fatalf("errors %q, want %q", errs, tt.wantErrs)
			}
			for i, e := range errs {
				if got := e.Error(); len(got) < len(tt.wantErrs[i]) || got[:len(tt.wantErrs[i])] != tt.wantErrs[i] {
					t.Errorf("error %d = %q, want it to start %q", i, got, tt.wantErrs[i])
				}
			}
			if !ok {
				if good != nil {
					t.Fatalf("good = %v, want nil", good)
				}
				return
			}
			var lines []int
			for _, r := range good.Rows {
				lines = append(lines, r.Line)
			}
			if !reflect.DeepEqual(lines, tt.wantLines) {
				t.Errorf("rows kept at lines %v, want %v", lines, tt.wantLines)
			}
			if again := Check(good, s, nil); len(again) > 0 {
				t.Errorf("the rows kept do not check: %v", again)
			}
			if good.SHA256 != f.SHA256 {
				t.Errorf("digest changed")
			}
		})
	}
}
