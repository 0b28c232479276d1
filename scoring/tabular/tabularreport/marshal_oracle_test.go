package tabularreport

import (
	"bytes"
	"encoding/json"
)

// The MarshalJSON methods below make encoding/json write a report as
// WriteJSON does: they exist only in the tests, where encoding/json and
// the struct tags are the oracle of the hand-written encoder.

func (ft FieldTotals) MarshalJSON() ([]byte, error) {
	return marshalOrdered(len(ft), func(i int) (string, any) { return ft[i].Name, ft[i] })
}

func (fs FieldSums) MarshalJSON() ([]byte, error) {
	return marshalOrdered(len(fs), func(i int) (string, any) { return fs[i].Name, fs[i] })
}

func (pf PairFields) MarshalJSON() ([]byte, error) {
	return marshalOrdered(len(pf), func(i int) (string, any) { return pf[i].Name, pf[i].Score })
}

func (ef ExtraFields) MarshalJSON() ([]byte, error) {
	return marshalOrdered(len(ef), func(i int) (string, any) { return ef[i].Key, ef[i].Value })
}

func (fd FieldDeltas) MarshalJSON() ([]byte, error) {
	return marshalOrdered(len(fd), func(i int) (string, any) { return fd[i].Name, fd[i].Delta })
}

// marshalOrdered writes a JSON object whose n members come from member, in
// order. Like the rest of a report, it escapes no HTML characters.
func marshalOrdered(n int, member func(int) (string, any)) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, v := member(i)
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
