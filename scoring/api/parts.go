package api

import (
	"reflect"

	"github.com/docscore/docscore/scoring/inputerr"
)

// ResolveParts fills in the text of every File in the request v (a pointer
// to a decoded request) that names a part: File.Text becomes parts[Part-1]
// and Part 0. A caller can so hand megabytes of file text over as they
// are, beside a small JSON request, instead of escaped inside it: the
// site's worker saves a JSON.stringify in JavaScript and the unescaping
// here. A part out of range, or a file giving both a part and a content,
// is an input error naming the file.
func ResolveParts(v any, parts []string) error {
	return resolveParts(reflect.ValueOf(v), parts)
}

var fileType = reflect.TypeFor[File]()

func resolveParts(v reflect.Value, parts []string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return resolveParts(v.Elem(), parts)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := resolveParts(v.Index(i), parts); err != nil {
				return err
			}
		}
	case reflect.Map:
		// File values in a map cannot be set in place (no request has
		// such a map): one that names a part is refused, not ignored.
		if v.Type().Elem() == fileType {
			for it := v.MapRange(); it.Next(); {
				if f := it.Value().Interface().(File); f.Part != 0 {
					return inputerr.New(f.Name, 0, "names part %d in a map of files, which cannot take parts", f.Part)
				}
			}
		}
	case reflect.Struct:
		if v.Type() == fileType {
			return resolveFile(v.Addr().Interface().(*File), parts)
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				if err := resolveParts(v.Field(i), parts); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func resolveFile(f *File, parts []string) error {
	switch {
	case f.Part == 0:
		return nil
	case len(parts) == 0:
		return inputerr.New(f.Name, 0, "names part %d, but no texts came beside the request (expected the file's text or base64)", f.Part)
	case f.Part < 0 || f.Part > len(parts):
		return inputerr.New(f.Name, 0, "part %d: the request came with %d text(s) beside it (expected 1 to %d)", f.Part, len(parts), len(parts))
	case f.Text != "" || f.Base64 != "":
		return inputerr.New(f.Name, 0, "gives both a part and its content (expected one of them)")
	}
	f.Text, f.Part = parts[f.Part-1], 0
	return nil
}
