package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// seeds are texts every fuzz target starts from: valid and invalid JSON
// of each kind, escapes, surrogates, invalid UTF-8, repeated keys.
var seeds = []string{
	`{}`, ` { } `, `[]`, `[ ]`, `{"a":1}`, `{"a":1,"a":2}`, `{"a" : [1, 2, {"b": null}] , "c":"d"}`,
	`{"model":"m","page":"01","records":[{"name":"A","x":true},{"name":"B\u00e9"}]}`,
	`{"k\"ey":"v\\al\/ue\b\f\n\r\t"}`, `{"s":"\ud83d\ude00 \ud800 \udc00x"}`, "{\"s\":\"\xff\xfe\"}",
	`[1,-0,0.5,-1.25e+10,1E-3,2e5]`, `[01]`, `[1.]`, `[.5]`, `[-]`, `[1e]`, `[+1]`, `[0x10]`,
	`[true,false,null]`, `[tru]`, `[nul]`, `[truex]`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{a:1}`, `{"a":1}}`,
	`{"a":1} x`, `"str"`, `"tab\there"`, "\"ctrl\x01\"", `"\x"`, `"\u12"`, `"\u12g4"`, `"unterminated`,
	`null`, `1`, ``, ` `, `{"a":{"b":{"c":[[[]]]}}}`, "\t{\"a\":\r\n1}\n",
	`{"records":[{"a":1},{}],"records":[{"b":[{"c":2}]}]}`, `{"records":[{"a":1},2]}`, `{"records":[{"a":1}],"records":null}`,
	`{"records":[]}`, `{"rec\u006frds":[{"a":1,"a":2}]}`, `{"records":[{"a":1},{"a":}]}`, `{"records":{"a":1}}`,
}

// checkNested holds Nested.Parse to Object and Array: the same texts, the
// same members, and the last "records" member's objects split the way
// Object splits each of them.
func checkNested(t *testing.T, data []byte) {
	var n Nested
	ok := n.Parse(string(data), "records")
	members, want := Object(nil, string(data))
	if ok != want {
		t.Fatalf("Nested.Parse(%q): ok %v, Object %v", data, ok, want)
	}
	if !ok {
		return
	}
	if len(members) != len(n.Members) {
		t.Fatalf("Nested.Parse(%q): %d members, Object %d", data, len(n.Members), len(members))
	}
	last := -1
	for i := range members {
		if members[i] != n.Members[i] {
			t.Fatalf("Nested.Parse(%q): member %d is %v, Object %v", data, i, n.Members[i], members[i])
		}
		if members[i].Key == "records" {
			last = i
		}
	}
	var wantItems []Member
	var wantEnds []int
	wantList := false
	if last >= 0 {
		elems, isArray := Array(nil, members[last].Value)
		wantList = isArray
		for _, e := range elems {
			if e[0] != '{' {
				wantList = false
				break
			}
			wantItems, _ = Object(wantItems, e)
			wantEnds = append(wantEnds, len(wantItems))
		}
	}
	if n.List != wantList {
		t.Fatalf("Nested.Parse(%q): List %v, want %v", data, n.List, wantList)
	}
	if wantList && (fmt.Sprint(n.Items) != fmt.Sprint(wantItems) || fmt.Sprint(n.Ends) != fmt.Sprint(wantEnds)) {
		t.Fatalf("Nested.Parse(%q): items %v ends %v, want %v %v", data, n.Items, n.Ends, wantItems, wantEnds)
	}
}

// checkObject holds Object to encoding/json: it accepts exactly the JSON
// objects, and its members, the last of each key winning, are the values
// json.Unmarshal gives a map, in the order json.Decoder reads the keys.
func checkObject(t *testing.T, data []byte) {
	members, ok := Object(nil, string(data))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	want := json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{'
	if ok != want {
		t.Fatalf("Object(%q): ok %v, encoding/json says %v", data, ok, want)
	}
	if !ok {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("Object(%q) accepted, json.Unmarshal: %v", data, err)
	}
	last := map[string]string{}
	for _, mb := range members {
		last[mb.Key] = mb.Value
	}
	if len(last) != len(m) {
		t.Fatalf("Object(%q): %d distinct keys, json.Unmarshal %d", data, len(last), len(m))
	}
	for k, v := range m {
		if last[k] != string(v) {
			t.Fatalf("Object(%q): key %q is %q, json.Unmarshal %q", data, k, last[k], v)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if i >= len(members) || members[i].Key != tok.(string) {
			t.Fatalf("Object(%q): member %d is not key %q", data, i, tok)
		}
	}
}

func checkArray(t *testing.T, data []byte) {
	elems, ok := Array(nil, string(data))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	want := json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '['
	if ok != want {
		t.Fatalf("Array(%q): ok %v, encoding/json says %v", data, ok, want)
	}
	if !ok {
		return
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(elems) {
		t.Fatalf("Array(%q): %d elements, json.Unmarshal %d", data, len(elems), len(list))
	}
	for i := range list {
		if string(list[i]) != elems[i] {
			t.Fatalf("Array(%q): element %d is %q, json.Unmarshal %q", data, i, elems[i], list[i])
		}
	}
}

func checkString(t *testing.T, data []byte) {
	s, ok := String(string(data))
	var want string
	err := json.Unmarshal(data, &want)
	isString := err == nil && len(data) > 0 && data[0] == '"' && data[len(data)-1] == '"'
	if ok != isString {
		t.Fatalf("String(%q): ok %v, encoding/json: %v", data, ok, err)
	}
	if ok && s != want {
		t.Fatalf("String(%q) = %q, encoding/json %q", data, s, want)
	}
}

func TestAgainstEncodingJSON(t *testing.T) {
	for _, s := range seeds {
		data := []byte(s)
		if got, want := Valid(string(data)), json.Valid(data); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid %v", s, got, want)
		}
		checkObject(t, data)
		checkArray(t, data)
		checkNested(t, data)
		checkString(t, data)
	}
}

func TestObjectMembers(t *testing.T) {
	tests := []struct {
		in   string
		want []Member
	}{
		{`{}`, nil},
		{` {"a": 1 , "b":"x y" ,"a":[ 2 ]} `, []Member{{"a", "1"}, {"b", `"x y"`}, {"a", "[ 2 ]"}}},
		{`{"\u00e9\"":{"n":null}}`, []Member{{"é\"", `{"n":null}`}}},
	}
	for _, tt := range tests {
		got, ok := Object(nil, tt.in)
		if !ok || len(got) != len(tt.want) {
			t.Fatalf("Object(%q) = %q, %v", tt.in, got, ok)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Object(%q)[%d] = %q, want %q", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

// TestDepthLimit: encoding/json refuses nesting beyond 10,000 levels, and
// so does the scanner.
func TestDepthLimit(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		data := []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		if got, want := Valid(string(data)), json.Valid(data); got != want || got != (depth <= maxDepth) {
			t.Errorf("depth %d: Valid %v, json.Valid %v", depth, got, want)
		}
		obj := []byte(`{"a":` + string(data[1:len(data)-1]) + `}`)
		checkObject(t, obj)
	}
}

func FuzzObject(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(string(data)), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", data, got, want)
		}
		checkObject(t, data)
		checkArray(t, data)
		checkNested(t, data)
	})
}

func FuzzString(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkString(t, data)
	})
}

// TestNoCopies: keys and plain strings share the scanned text's memory.
func TestNoCopies(t *testing.T) {
	line := `{"name":"Maria q.m. Antonio","place":"San Geremia","n":3}`
	var members []Member
	allocs := testing.AllocsPerRun(100, func() {
		members, _ = Object(members[:0], line)
		for _, m := range members {
			if m.Value[0] == '"' {
				if _, ok := String(m.Value); !ok {
					t.Fatal(m.Value)
				}
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per line, want 0", allocs)
	}
}

// TestValueEnd: the value starting at an index, whatever follows it.
func TestValueEnd(t *testing.T) {
	for _, c := range []struct {
		data string
		i    int
		end  int
		ok   bool
	}{
		{"[1,2] and more", 0, 5, true},
		{"see [1]: [{\"a\":1}]", 4, 7, true},
		{"see [1]: [{\"a\":1}]", 9, 18, true},
		{`"a\"b"c`, 0, 6, true},
		{"[1,", 0, 0, false},
		{"[x]", 0, 0, false},
		{" [1]", 0, 0, false},
	} {
		end, ok := ValueEnd(c.data, c.i)
		if ok != c.ok || (ok && end != c.end) {
			t.Errorf("ValueEnd(%q, %d) = %d, %v; want %d, %v", c.data, c.i, end, ok, c.end, c.ok)
		}
	}
}
