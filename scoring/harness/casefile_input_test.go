package harness

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

// TestReadCaseFileInputRules: a cases file follows the input rules of every
// JSONL reader: invalid UTF-8 is an error naming the line (it was decoded
// as U+FFFD), a line that is not an object says so, CRLF and indentation
// keep columns right.
func TestReadCaseFileInputRules(t *testing.T) {
	tests := []struct {
		name, file, src, want string
	}{
		{"JSONL not UTF-8", "cases.jsonl", "{\"case_id\": \"a\", \"prediction\": 1}\n{\"case_id\": \"b\xff\", \"prediction\": 1}\n", "cases.jsonl:2:15: expected UTF-8 text"},
		{"JSON not UTF-8", "cases.json", "{\n \"case_id\": \"\xfe\", \"prediction\": 1}", "cases.json:2:14: expected UTF-8 text"},
		{"JSONL array", "cases.jsonl", "{\"case_id\": \"a\", \"prediction\": 1}\r\n  []\r\n", "cases.jsonl:2:3: expected a JSON object (a case, a pipeline or a cases file), found an array"},
		{"JSONL indented syntax error", "cases.jsonl", "\n   {\"case_id\" 1}", "cases.jsonl:2:15: invalid JSON: invalid character '1' after object key"},
	}
	for _, tt := range tests {
		_, err := readString(tt.file, tt.src, nil)
		// the first line: the source line and a caret follow
		if e, ok := inputerr.As(err); !ok || e.Head() != tt.want || !strings.HasSuffix(err.Error(), "^") {
			t.Errorf("%s: error %v, want %s, the line and a caret", tt.name, err, tt.want)
		}
	}
}
