package reportread

import (
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// scanTabular reads a tabular report's members as encoding/json fills
// tabularJSON, in one pass of jsonscan over the text: three to four times
// faster on the benchmark corpus's 8 MB report, most of which (the image
// rows' pairs) is only checked. ok is false for a text that is not a
// tabular report of the expected shape — not JSON, another kind, a member
// of another type, a repeated key, a key encoding/json would match only
// by case-folding, a number out of range —, and the caller then reads it
// with encoding/json, which decodes the same values or names the error
// (TestScanMatchesEncodingJSON).
func scanTabular(text string) (r tabularJSON, ok bool) {
	kind, isString := "", false
	var fields []string
	var cells []jsonscan.Member
	var im imageScan
	end, ok := scanObject(text, jsonscan.SkipSpace(text, 0), 0, topKeys, func(k, i int) (int, bool) {
		if k == 3 { // images
			return im.images(text, i, &r)
		}
		end, ok := skipValue(text, i, 1)
		if !ok {
			return 0, false
		}
		raw := text[i:end]
		switch k {
		case 0: // kind
			kind, isString = jsonscan.String(raw)
			return end, isString
		case 1: // fields
			elems, ok := jsonscan.Array(nil, raw)
			if !ok {
				return 0, false
			}
			fields = make([]string, len(elems))
			for i, e := range elems {
				if fields[i], ok = jsonscan.String(e); !ok {
					return 0, false
				}
			}
			r.Fields = &fields
			return end, true
		}
		// cells
		elems, ok := jsonscan.Array(nil, raw)
		if !ok {
			return 0, false
		}
		c := make([]struct {
			Model *string `json:"model"`
			Phase *string `json:"phase"`
		}, len(elems))
		for i, e := range elems {
			if cells, ok = jsonscan.Object(cells[:0], e); !ok {
				return 0, false
			}
			if !scanMembers(cells, []string{"model", "phase"}, func(k, raw string) bool {
				if k == "model" {
					return scanString(raw, &c[i].Model)
				}
				return scanString(raw, &c[i].Phase)
			}) {
				return 0, false
			}
		}
		r.Cells = &c
		return end, true
	})
	ok = ok && jsonscan.SkipSpace(text, end) == len(text)
	return r, ok && kind == "tabular" && r.Fields != nil && r.Cells != nil && r.Images != nil
}

// topKeys are the members of a tabular report that tabularJSON reads
// (and its kind); scanTabular's cases are their indices.
var topKeys = []string{"kind", "fields", "cells", "images"}

// scanObject walks the object starting at data[i] (a non-space byte),
// inside depth open containers, and returns the index after it. For a
// member whose key is keys[k], set(k, j) reads the value starting at
// data[j] and returns the index after it; the other members are only
// checked (skipValue). ok is false, as scanMembers is, for a key given
// twice or one that matches a key only by case-folding, and for a text
// that is not an object.
func scanObject(data string, i, depth int, keys []string, set func(k, j int) (int, bool)) (end int, ok bool) {
	if i >= len(data) || data[i] != '{' {
		return 0, false
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	var seen uint64
	for {
		if i >= len(data) || data[i] != '"' {
			return 0, false
		}
		keyEnd, ok := jsonscan.StringEnd(data, i)
		if !ok {
			return 0, false
		}
		key, _ := jsonscan.String(data[i:keyEnd])
		i = jsonscan.SkipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return 0, false
		}
		i = jsonscan.SkipSpace(data, i+1)
		switch k := indexOf(keys, key); {
		case k >= 0 && seen&(1<<k) != 0:
			return 0, false
		case k >= 0:
			seen |= 1 << k
			i, ok = set(k, i)
		case foldsTo(keys, key):
			return 0, false
		default:
			i, ok = skipValue(data, i, depth+1)
		}
		if !ok {
			return 0, false
		}
		var end bool
		if i, end, ok = afterValue(data, i, '}'); !ok || end {
			return i, ok
		}
	}
}

// foldsTo is whether key matches one of keys only by case-folding, as
// encoding/json would match it.
func foldsTo(keys []string, key string) bool {
	for _, k := range keys {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// imageScan reads a report's image rows. Their strings and numbers are
// allocated in blocks (an image row's pointers point into them) and the
// members of a row's "fields" reuse one slice: a few allocations per
// image instead of some sixty.
type imageScan struct {
	strs   []string
	nums   []float64
	sums   []tabularFieldSum
	fields []jsonscan.Member
}

// block is how many values imageScan allocates at once.
const block = 256

func (a *imageScan) str(s string) *string {
	if len(a.strs) == cap(a.strs) {
		a.strs = make([]string, 0, block)
	}
	a.strs = append(a.strs, s)
	return &a.strs[len(a.strs)-1]
}

func (a *imageScan) num(v float64) *float64 {
	if len(a.nums) == cap(a.nums) {
		a.nums = make([]float64, 0, block)
	}
	a.nums = append(a.nums, v)
	return &a.nums[len(a.nums)-1]
}

func (a *imageScan) sum() *tabularFieldSum {
	if len(a.sums) == cap(a.sums) {
		a.sums = make([]tabularFieldSum, 0, block)
	}
	a.sums = append(a.sums, tabularFieldSum{})
	return &a.sums[len(a.sums)-1]
}

// images reads the "images" member's value at data[i] into r.Images; ok
// is false when it is not an array of objects. A long array is read in
// parts on up to GOMAXPROCS goroutines (rowParts); where that fails for
// any reason it is read again in one pass, so that the rows, and whether
// the text is refused, are those of one pass.
func (a *imageScan) images(data string, i int, r *tabularJSON) (end int, ok bool) {
	if i >= len(data) || data[i] != '[' {
		return 0, false
	}
	start := jsonscan.SkipSpace(data, i+1)
	if start < len(data) && data[start] == ']' {
		images := []tabularImage{}
		r.Images = &images
		return start + 1, true
	}
	if parts := rowParts(data, i+1, start, runtime.GOMAXPROCS(0)); len(parts) > 2 {
		if images, end, ok := scanParts(data, parts); ok {
			r.Images = &images
			return end, true
		}
	}
	images := make([]tabularImage, 0, 64)
	end, ok = a.rows(data, start, -1, &images)
	r.Images = &images
	return end, ok
}

// rows reads the rows of an images array from data[i] (the start of a
// row) into images. With stop < 0 it reads to the array's end and returns
// the index after it; otherwise the rows up to the one that starts at
// stop, and returns stop — ok is false when no row starts there.
func (a *imageScan) rows(data string, i, stop int, images *[]tabularImage) (end int, ok bool) {
	for {
		*images = append(*images, tabularImage{})
		im := &(*images)[len(*images)-1]
		if i, ok = scanObject(data, i, 2, imageKeys, func(k, j int) (int, bool) {
			end, ok := skipValue(data, j, 3)
			return end, ok && a.member(im, k, data[j:end])
		}); !ok {
			return 0, false
		}
		var end bool
		if i, end, ok = afterValue(data, i, ']'); !ok || end {
			return i, ok && stop < 0
		}
		if stop >= 0 && i >= stop {
			return i, i == stop
		}
	}
}

// minPartBytes is the least text of image rows worth a goroutine (a
// variable for the tests).
var minPartBytes = 1 << 20

// rowParts guesses where the rows of an indented images array start, to
// read it in up to n parts: the array's "[" is at data[open-1] and its
// first row starts at data[first]. A row's "{" after a newline and the
// first row's indent can only be a row's start in a report as docscore
// writes it (a JSON string holds no newline); scanParts checks each guess,
// since a text indented otherwise may hold that pattern elsewhere. The
// parts are [parts[k], parts[k+1]) and the last one runs to the array's
// end; nil when the text is short, unindented or n is 1.
func rowParts(data string, open, first, n int) []int {
	n = min(n, (len(data)-first)/minPartBytes)
	if n < 2 {
		return nil
	}
	nl := strings.LastIndexByte(data[open:first], '\n')
	if nl < 0 {
		return nil
	}
	pattern := data[open+nl : first+1] // "\n" + indent + "{"
	parts := []int{first}
	for k := 1; k < n; k++ {
		from := max(first+k*(len(data)-first)/n, parts[len(parts)-1]+1)
		at := strings.Index(data[from:], pattern)
		if at < 0 {
			break
		}
		parts = append(parts, from+at+len(pattern)-1)
	}
	return append(parts, -1)
}

// scanParts reads the rows of the parts rowParts gave, each on a
// goroutine with an imageScan of its own, and returns them in order and
// the index after the array; ok is false unless every part ends where the
// next one starts (every guess was a row's start) and each read.
func scanParts(data string, parts []int) (images []tabularImage, end int, ok bool) {
	n := len(parts) - 1
	if n < 1 {
		return nil, 0, false
	}
	rows := make([][]tabularImage, n)
	ends := make([]int, n)
	oks := make([]bool, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var a imageScan
			rows[k] = make([]tabularImage, 0, 64)
			ends[k], oks[k] = a.rows(data, parts[k], parts[k+1], &rows[k])
		}()
	}
	wg.Wait()
	total := 0
	for k := range n {
		if !oks[k] {
			return nil, 0, false
		}
		total += len(rows[k])
	}
	images = make([]tabularImage, 0, total)
	for _, r := range rows {
		images = append(images, r...)
	}
	return images, ends[n-1], true
}

// imageKeys are the members of an image row that tabularImage reads.
var imageKeys = []string{"model", "phase", "page", "status", "line", "matched", "n_model", "n_gt", "name_cer_edits", "name_ref_chars", "fields"}

// member reads the image row's member imageKeys[k], whose value is raw.
func (a *imageScan) member(im *tabularImage, k int, raw string) bool {
	switch k {
	case 0:
		return a.scanString(raw, &im.Model)
	case 1:
		return a.scanString(raw, &im.Phase)
	case 2:
		return a.scanString(raw, &im.Page)
	case 3:
		return a.scanString(raw, &im.Status)
	case 4:
		if raw == "null" {
			return true
		}
		v, err := strconv.ParseInt(raw, 10, 64)
		im.Line = int(v)
		return err == nil && isNumber(raw)
	case 5:
		return a.scanNumber(raw, &im.Matched)
	case 6:
		return a.scanNumber(raw, &im.NModel)
	case 7:
		return a.scanNumber(raw, &im.NGT)
	case 8:
		return a.scanNumber(raw, &im.NameEdits)
	case 9:
		return a.scanNumber(raw, &im.NameRefChars)
	}
	// fields: a map, whose keys encoding/json matches exactly
	if raw == "null" {
		return true
	}
	fs, ok := jsonscan.Object(a.fields[:0], raw)
	a.fields = fs
	if !ok {
		return false
	}
	im.Fields = make(map[string]*tabularFieldSum, len(fs))
	var sums []jsonscan.Member
	for _, f := range fs {
		if _, again := im.Fields[f.Key]; again {
			return false
		}
		if f.Value == "null" {
			im.Fields[f.Key] = nil
			continue
		}
		if sums, ok = jsonscan.Object(sums[:0], f.Value); !ok {
			return false
		}
		s := a.sum()
		if !scanMembers(sums, sumKeys, func(k, raw string) bool {
			if k == "sum" {
				return a.scanNumber(raw, &s.Sum)
			}
			return a.scanNumber(raw, &s.Scored)
		}) {
			return false
		}
		im.Fields[f.Key] = s
	}
	return true
}

// sumKeys are the members of a field's sums that tabularFieldSum reads.
var sumKeys = []string{"sum", "scored"}

// scanMembers calls set for each member whose key is one of keys, and
// is false, as set is, for a member encoding/json would read otherwise:
// a key given twice, or one that matches a key only by case-folding.
func scanMembers(members []jsonscan.Member, keys []string, set func(key, raw string) bool) bool {
	var seen uint64
	for _, m := range members {
		i := indexOf(keys, m.Key)
		switch {
		case i >= 0 && seen&(1<<i) != 0:
			return false
		case i >= 0:
			seen |= 1 << i
			if !set(m.Key, m.Value) {
				return false
			}
		case foldsTo(keys, m.Key):
			return false
		}
	}
	return true
}

func indexOf(keys []string, key string) int {
	for i, k := range keys {
		if k == key {
			return i
		}
	}
	return -1
}

// scanString reads a string or null into *dst.
func scanString(raw string, dst **string) bool {
	if raw == "null" {
		*dst = nil
		return true
	}
	s, ok := jsonscan.String(raw)
	*dst = &s
	return ok
}

// scanString is scanString with the string in a's block.
func (a *imageScan) scanString(raw string, dst **string) bool {
	if raw == "null" {
		*dst = nil
		return true
	}
	s, ok := jsonscan.String(raw)
	*dst = a.str(s)
	return ok
}

// scanNumber reads a number or null into *dst, in a's block, as
// encoding/json does (strconv.ParseFloat; out of range is an error).
func (a *imageScan) scanNumber(raw string, dst **float64) bool {
	if raw == "null" {
		*dst = nil
		return true
	}
	if !isNumber(raw) {
		return false
	}
	v, err := strconv.ParseFloat(raw, 64)
	*dst = a.num(v)
	return err == nil
}

// isNumber is whether a scanned value is a number (jsonscan has checked
// its syntax).
func isNumber(raw string) bool { return raw != "" && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') }

// afterValue reads what follows a member or element at i: a comma (ok,
// not end, i past it and its space) or the container's closer (ok, end, i
// past it); anything else is not ok.
func afterValue(data string, i int, closer byte) (next int, end, ok bool) {
	i = jsonscan.SkipSpace(data, i)
	switch {
	case i >= len(data):
		return 0, false, false
	case data[i] == ',':
		return jsonscan.SkipSpace(data, i+1), false, true
	case data[i] == closer:
		return i + 1, true, true
	}
	return 0, false, false
}
