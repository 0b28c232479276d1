package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"

	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/ingest"
)

// isEmpty reports whether a required field was left out: zero, or an
// empty list.
func isEmpty(v reflect.Value) bool {
	return v.IsZero() || v.Kind() == reflect.Slice && v.Len() == 0
}

// decodeBody fills dst from a JSON or multipart/form-data body.
func decodeBody(r *http.Request, dst any) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return errorf(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"no Content-Type (expected application/json or multipart/form-data)")
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return errorf(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Content-Type %q: %v (expected application/json or multipart/form-data)", ct, err)
	}
	switch mt {
	case "application/json":
		return decodeJSON(r.Body, dst)
	case "multipart/form-data":
		boundary := params["boundary"]
		if boundary == "" {
			return errorf(http.StatusBadRequest, "bad_request", "multipart/form-data without a boundary parameter")
		}
		return decodeMultipart(multipart.NewReader(bodyOrEmpty(r.Body), boundary), dst)
	default:
		return errorf(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Content-Type %q: expected application/json or multipart/form-data", mt)
	}
}

func bodyOrEmpty(b io.Reader) io.Reader {
	if b == nil {
		return strings.NewReader("")
	}
	return b
}

// decodeJSON reads one JSON object into dst; unknown fields, trailing data
// and type mismatches are errors naming the line of the body.
func decodeJSON(body io.Reader, dst any) error {
	data, err := io.ReadAll(bodyOrEmpty(body))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return errorf(http.StatusBadRequest, "bad_request", "empty request body (expected a JSON object)")
	}
	src := ingest.OpenBytes("request body", data)
	data = src.Bytes()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(src, err, dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return bodyError(src, int(dec.InputOffset()), "unexpected data after the JSON object")
	}
	return nil
}

// bodyError is a request-body error at byte offset off of the body:
// "request body:LINE:COL: message", the line and a caret, as every input
// error shows, with the line and column in the error's fields.
func bodyError(src *ingest.Source, off int, msg string) *httpError {
	e := src.ErrorAt(off, "%s", msg)
	d := core.DescribeError(e)
	d.Code, d.File = "bad_request", nil
	return &httpError{status: http.StatusBadRequest, detail: d}
}

// jsonError describes a JSON decoding error at its line and column.
func jsonError(src *ingest.Source, err error, offset int64) error {
	data := src.Bytes()
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset - 1 // the offending byte is the last one read
	case errors.As(err, &typ):
		offset = typ.Offset
		if start, ok := src.ValueStart(int(offset)); ok {
			offset = int64(start)
		}
		if typ.Field == "" {
			msg = "expected a JSON object, not a JSON " + typ.Value
			break
		}
		msg = "field " + strconv.Quote(typ.Field) + ": expected " + describeType(typ.Type) + ", not a JSON " + typ.Value
	case errors.Is(err, io.ErrUnexpectedEOF):
		offset = int64(len(data))
		msg = "unexpected end of the JSON body"
	case strings.HasPrefix(msg, "json: unknown field "):
		msg = "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
		if key, err := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field ")); err == nil {
			if at, ok := src.KeyOffset(key); ok {
				offset = int64(at)
			}
		}
	}
	msg = strings.TrimPrefix(msg, "json: ")
	return bodyError(src, int(offset), msg)
}

// describeType names a Go type of the request in the body's terms.
func describeType(t reflect.Type) string {
	if t.Kind() == reflect.Pointer && t.Elem() != fileType {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeOf(core.File{}):
		return `a file {"name", "text"}`
	case t.Kind() == reflect.Slice:
		return "a list"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Float64, t.Kind() == reflect.Int:
		return "a number"
	}
	return t.String()
}

var fileType = reflect.TypeOf(core.File{})

// jsonName is a struct field's JSON name, "" for none.
func jsonName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if tag == "-" || f.Anonymous || !f.IsExported() {
		return ""
	}
	return tag
}

// fieldByName finds the field of the struct v whose JSON name is name,
// in v or a struct it embeds (a detail request embeds the scoring request).
func fieldByName(v reflect.Value, name string) (reflect.Value, bool) {
	for _, f := range reflect.VisibleFields(v.Type()) {
		if jsonName(f) == name {
			return v.FieldByIndex(f.Index), true
		}
	}
	return reflect.Value{}, false
}

// fieldNames lists the JSON names of a request type's fields.
func fieldNames(t reflect.Type) []string {
	var names []string
	for _, f := range reflect.VisibleFields(t) {
		if n := jsonName(f); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// decodeMultipart fills dst from multipart/form-data: a part named after a
// file field is a file (its file name kept, the field name when it has
// none), a part named after an option is that option's value.
func decodeMultipart(mr *multipart.Reader, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	seen := map[string]bool{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return multipartError(err)
		}
		name := part.FormName()
		f, ok := fieldByName(v, name)
		if !ok {
			return errorf(http.StatusBadRequest, "bad_request", "unknown field %q (expected %s)", name, strings.Join(fieldNames(v.Type()), ", "))
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return multipartError(err)
		}
		if seen[name] && f.Kind() != reflect.Slice {
			return errorf(http.StatusBadRequest, "bad_request", "field %q given twice (expected one)", name)
		}
		seen[name] = true
		file := core.File{Name: part.FileName(), Text: string(data)}
		if file.Name == "" {
			file.Name = name
		}
		switch {
		case f.Type() == fileType:
			f.Set(reflect.ValueOf(file))
		case f.Type() == reflect.PointerTo(fileType):
			f.Set(reflect.ValueOf(&file))
		case f.Type() == reflect.SliceOf(fileType):
			f.Set(reflect.Append(f, reflect.ValueOf(file)))
		default:
			if err := setScalar(f, name, string(data)); err != nil {
				return err
			}
		}
	}
}

// multipartError keeps an oversized body a 413 and makes any other
// multipart failure a 400.
func multipartError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return err
	}
	return errorf(http.StatusBadRequest, "bad_request", "malformed multipart/form-data body: %v", err)
}

// setScalar parses an option's text into its field.
func setScalar(f reflect.Value, name, text string) error {
	text = strings.TrimSpace(text)
	bad := func(want string) error {
		return errorf(http.StatusBadRequest, "bad_request", "field %q: %q is not %s", name, text, want)
	}
	switch f.Kind() {
	case reflect.Pointer: // an option that may be left out: gate, bootstrap
		v := reflect.New(f.Type().Elem())
		if err := setScalar(v.Elem(), name, text); err != nil {
			return err
		}
		f.Set(v)
	case reflect.String:
		f.SetString(text)
	case reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return bad("true or false")
		}
		f.SetBool(b)
	case reflect.Float64:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return bad("a number")
		}
		f.SetFloat(x)
	case reflect.Int:
		x, err := strconv.Atoi(text)
		if err != nil {
			return bad("an integer")
		}
		f.SetInt(int64(x))
	case reflect.Uint64:
		x, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return bad("a whole number from 0 to 18446744073709551615")
		}
		f.SetUint(x)
	default:
		return errorf(http.StatusBadRequest, "bad_request", "field %q: expected a file part, or JSON", name)
	}
	return nil
}

// applyQuery sets the options given as query parameters; a parameter a
// route does not take is an error.
func applyQuery(r *http.Request, dst any, allowed []string) error {
	v := reflect.ValueOf(dst).Elem()
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		vals := q[name]
		ok := false
		for _, a := range allowed {
			ok = ok || a == name
		}
		if !ok {
			want := "no query parameters"
			if len(allowed) > 0 {
				want = strings.Join(allowed, ", ")
			}
			return errorf(http.StatusBadRequest, "bad_request", "unknown query parameter %q (expected %s)", name, want)
		}
		if len(vals) != 1 {
			return errorf(http.StatusBadRequest, "bad_request", "query parameter %q given %d times (expected once)", name, len(vals))
		}
		f, _ := fieldByName(v, name)
		if err := setScalar(f, name, vals[0]); err != nil {
			return err
		}
	}
	return nil
}
