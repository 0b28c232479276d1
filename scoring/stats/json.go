package stats

import (
	"bytes"
	"encoding/json"
)

// member is one key and value of a JSON object, written in order.
type member struct {
	key   string
	value any
}

// writeObject writes members as one JSON object; a value that is itself
// a []member is written as a nested object.
func writeObject(b *bytes.Buffer, members []member) error {
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeValue(b, m.key); err != nil {
			return err
		}
		b.WriteByte(':')
		if nested, ok := m.value.([]member); ok {
			if err := writeObject(b, nested); err != nil {
				return err
			}
			continue
		}
		if err := writeValue(b, m.value); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeValue writes v as encoding/json does, escaping no HTML characters,
// as the reports that hold these objects do (jsonout, tabular.WriteJSON).
func writeValue(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// grouped lays out per-statistic values as object members: a statistic
// without a group under its name, grouped ones inside one object named
// after the group, placed where the group's first statistic is.
func grouped(n int, name, group func(i int) string, value func(i int) any) []member {
	var out []member
	where := map[string]int{}
	for i := range n {
		g := group(i)
		if g == "" {
			out = append(out, member{name(i), value(i)})
			continue
		}
		at, ok := where[g]
		if !ok {
			at = len(out)
			where[g] = at
			out = append(out, member{g, []member{}})
		}
		out[at].value = append(out[at].value.([]member), member{name(i), value(i)})
	}
	return out
}

// MarshalJSON writes the "ci" object of SPEC F.4.
func (ci *CI) MarshalJSON() ([]byte, error) {
	name := func(i int) string { return ci.Stats[i].Name }
	group := func(i int) string { return ci.Stats[i].Group }
	members := []member{
		{"level", ci.Level}, {"replicates", ci.Replicates}, {"seed", ci.Seed},
		{"unit", ci.Unit}, {"units", ci.Units},
	}
	if ci.FewUnits {
		members = append(members, member{"few_units", true})
	}
	members = append(members, grouped(len(ci.Stats), name, group, func(i int) any { return ci.Stats[i].Interval })...)
	members = append(members, member{"kept", grouped(len(ci.Stats), name, group, func(i int) any { return ci.Stats[i].Kept })})
	var b bytes.Buffer
	err := writeObject(&b, members)
	return b.Bytes(), err
}
