package evalcase

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Authority says how far a reference can be trusted.
type Authority string

// The three authority levels of the seed.
const (
	// AuthorityEvidence is a raw source (PDF, image, OCR text) that can
	// support or contradict a prediction but is not assumed infallible.
	AuthorityEvidence Authority = "evidence"
	// AuthorityGenerated is a provisional reference produced by models from
	// the evidence; agreement with it is not accuracy.
	AuthorityGenerated Authority = "generated"
	// AuthorityGroundTruth is an authoritative human or trusted-system
	// reference.
	AuthorityGroundTruth Authority = "ground_truth"
)

// ArtifactKind is what a reference holds.
type ArtifactKind string

// The kinds of reference artifacts.
const (
	KindText     ArtifactKind = "text"
	KindJSON     ArtifactKind = "json"
	KindCSV      ArtifactKind = "csv"
	KindMarkdown ArtifactKind = "markdown"
	KindImage    ArtifactKind = "image"
	KindPDF      ArtifactKind = "pdf"
	KindFile     ArtifactKind = "file"
)

// ComparisonMode says how a reference may be compared with a prediction.
type ComparisonMode string

// The comparison modes of the seed.
const (
	// ComparisonAuto lets JSON and path/value tables be compared exactly
	// and leaves every other reference to semantic (judge) comparison.
	ComparisonAuto ComparisonMode = "auto"
	// ComparisonSemantic forces judge comparison even for structured data.
	ComparisonSemantic ComparisonMode = "semantic"
	// ComparisonExact asks for deterministic comparison of structured data.
	ComparisonExact ComparisonMode = "exact"
)

// AuthorityNames lists the authorities a reference may have.
func AuthorityNames() []string { return slices.Clone(authorities) }

// ArtifactKindNames lists the kinds a reference may have.
func ArtifactKindNames() []string { return slices.Clone(artifactKinds) }

// ComparisonModeNames lists the comparison modes a reference may have.
func ComparisonModeNames() []string { return slices.Clone(comparisonModes) }

var (
	authorities     = []string{string(AuthorityEvidence), string(AuthorityGenerated), string(AuthorityGroundTruth)}
	artifactKinds   = []string{string(KindText), string(KindJSON), string(KindCSV), string(KindMarkdown), string(KindImage), string(KindPDF), string(KindFile)}
	comparisonModes = []string{string(ComparisonAuto), string(ComparisonSemantic), string(ComparisonExact)}
)

// ReferenceArtifact is one reference a stage is judged against: a source
// document, a human transcription, a base table, generated ground truth.
type ReferenceArtifact struct {
	ArtifactID     string         `json:"artifact_id"`
	Authority      Authority      `json:"authority"`
	Kind           ArtifactKind   `json:"kind"`
	Path           string         `json:"path,omitempty"`
	MediaType      string         `json:"media_type,omitempty"`
	ComparisonMode ComparisonMode `json:"comparison_mode"`
	// SHA256 is the hex SHA-256 of the artifact's content: the file's bytes,
	// or the canonical JSON (or text) of an in-line value.
	SHA256 string `json:"sha256,omitempty"`
	// Value is the content of text, Markdown, CSV and JSON artifacts: a
	// string, or decoded JSON. Images, PDFs and other files keep their bytes
	// in Content instead.
	Value    any            `json:"value,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Content holds the bytes of an artifact read from a file; it travels
	// to judges as an attachment and never into reports or fingerprints
	// (SHA256 stands for it there).
	Content []byte `json:"-"`
}

// ArtifactOptions are the optional settings of ArtifactFromValue and
// ArtifactFromBytes. Zero values pick the defaults: authority evidence,
// comparison mode auto, the kind inferred from the value or file name.
type ArtifactOptions struct {
	ArtifactID     string
	Authority      Authority
	Kind           ArtifactKind
	MediaType      string
	ComparisonMode ComparisonMode
	Metadata       map[string]any
}

// ArtifactFromValue builds a reference from an in-memory value: a string
// becomes a text artifact, anything else JSON. The content is hashed with
// SHA-256 (the canonical JSON of structured values, the bytes of text), and
// the artifact id defaults to "value-" and the first 12 hex digits of it.
func ArtifactFromValue(value any, opts ArtifactOptions) (ReferenceArtifact, error) {
	v, err := NormalizeValue(value)
	if err != nil {
		return ReferenceArtifact{}, fmt.Errorf("artifact value: %w", err)
	}
	kind := opts.Kind
	if kind == "" {
		if _, ok := v.(string); ok {
			kind = KindText
		} else {
			kind = KindJSON
		}
	}
	var content []byte
	if s, ok := v.(string); ok && kind != KindJSON {
		content = []byte(s)
	} else {
		content, err = CanonicalJSON(v)
		if err != nil {
			return ReferenceArtifact{}, fmt.Errorf("artifact value: %w", err)
		}
	}
	media := opts.MediaType
	if media == "" {
		media = defaultMediaType(kind)
	}
	a := ReferenceArtifact{
		ArtifactID:     opts.ArtifactID,
		Authority:      opts.Authority,
		Kind:           kind,
		MediaType:      media,
		ComparisonMode: opts.ComparisonMode,
		SHA256:         SHA256Hex(content),
		Value:          v,
		Metadata:       opts.Metadata,
	}
	if a.ArtifactID == "" {
		a.ArtifactID = "value-" + a.SHA256[:12]
	}
	a = a.withDefaults()
	return a, a.validate()
}

// ArtifactFromBytes builds a reference from the bytes of a file named
// name: the kind and media type come from the file's extension unless
// given, text kinds (text, Markdown, CSV) keep their text as Value, JSON is
// decoded (a malformed file is an input error naming its line), and other
// kinds keep the bytes in Content. The artifact id defaults to the base
// name of the file. The native ArtifactFromPath is this plus reading the
// file.
func ArtifactFromBytes(name string, data []byte, opts ArtifactOptions) (ReferenceArtifact, error) {
	kind, media := inferKind(name)
	if opts.Kind != "" {
		kind = opts.Kind
	}
	if opts.MediaType != "" {
		media = opts.MediaType
	}
	a := ReferenceArtifact{
		ArtifactID:     opts.ArtifactID,
		Authority:      opts.Authority,
		Kind:           kind,
		Path:           name,
		MediaType:      media,
		ComparisonMode: opts.ComparisonMode,
		SHA256:         SHA256Hex(data),
		Metadata:       opts.Metadata,
	}
	if a.ArtifactID == "" {
		a.ArtifactID = path.Base(strings.ReplaceAll(name, "\\", "/"))
	}
	switch kind {
	case KindJSON:
		v, err := parseJSONDocument(data, name)
		if err != nil {
			return ReferenceArtifact{}, err
		}
		a.Value = v
	case KindText, KindMarkdown, KindCSV:
		if !utf8.Valid(data) {
			return ReferenceArtifact{}, inputerr.New(name, 0, "expected UTF-8 text for a %s artifact", kind)
		}
		a.Value = ingest.StripBOMString(string(data))
	default:
		a.Content = data
	}
	a = a.withDefaults()
	return a, a.validate()
}

// ParseJSONValue decodes one JSON document (a prediction file, a JSON
// reference) with numbers kept exact as json.Number; a syntax error is an
// input error naming name, the line and the column.
func ParseJSONValue(data []byte, name string) (any, error) {
	return parseJSONDocument(data, name)
}

// parseJSONDocument decodes one JSON document, numbers as json.Number,
// reporting a syntax error with its line and column.
func parseJSONDocument(data []byte, name string) (any, error) {
	data = ingest.StripBOM(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ingest.JSONError(name, data, err, "")
	}
	if dec.More() {
		line, col := ingest.Position(data, int(dec.InputOffset()))
		return nil, &inputerr.Error{File: name, Line: line, Column: col, Msg: "expected the end of the JSON document, found more data"}
	}
	return v, nil
}

func (a ReferenceArtifact) withDefaults() ReferenceArtifact {
	if a.Authority == "" {
		a.Authority = AuthorityEvidence
	}
	if a.ComparisonMode == "" {
		a.ComparisonMode = ComparisonAuto
	}
	if a.Kind == "" {
		a.Kind = KindFile
	}
	return a
}

func (a ReferenceArtifact) validate() error {
	if !oneOf(string(a.Authority), authorities) {
		return fmt.Errorf("artifact %q: authority %q: expected one of %s", a.ArtifactID, a.Authority, strings.Join(authorities, ", "))
	}
	if !oneOf(string(a.Kind), artifactKinds) {
		return fmt.Errorf("artifact %q: kind %q: expected one of %s", a.ArtifactID, a.Kind, strings.Join(artifactKinds, ", "))
	}
	if !oneOf(string(a.ComparisonMode), comparisonModes) {
		return fmt.Errorf("artifact %q: comparison_mode %q: expected one of %s", a.ArtifactID, a.ComparisonMode, strings.Join(comparisonModes, ", "))
	}
	return nil
}

// inferKind maps a file extension to an artifact kind and media type. The
// table is fixed (not the host's MIME database) so every host agrees.
func inferKind(name string) (ArtifactKind, string) {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/")))
	switch ext {
	case ".json":
		return KindJSON, "application/json"
	case ".csv":
		return KindCSV, "text/csv"
	case ".tsv":
		return KindCSV, "text/tab-separated-values"
	case ".md", ".markdown":
		return KindMarkdown, "text/markdown"
	case ".txt", ".text":
		return KindText, "text/plain"
	case ".png":
		return KindImage, "image/png"
	case ".jpg", ".jpeg":
		return KindImage, "image/jpeg"
	case ".gif":
		return KindImage, "image/gif"
	case ".webp":
		return KindImage, "image/webp"
	case ".tif", ".tiff":
		return KindImage, "image/tiff"
	case ".bmp":
		return KindImage, "image/bmp"
	case ".pdf":
		return KindPDF, "application/pdf"
	case ".odt":
		return KindFile, "application/vnd.oasis.opendocument.text"
	case ".ods":
		return KindFile, "application/vnd.oasis.opendocument.spreadsheet"
	case ".odp":
		return KindFile, "application/vnd.oasis.opendocument.presentation"
	case ".odg":
		return KindFile, "application/vnd.oasis.opendocument.graphics"
	}
	return KindFile, "application/octet-stream"
}

// defaultMediaType is the media type of an in-line value of a kind.
func defaultMediaType(k ArtifactKind) string {
	switch k {
	case KindJSON:
		return "application/json"
	case KindCSV:
		return "text/csv"
	case KindMarkdown:
		return "text/markdown"
	case KindText:
		return "text/plain"
	}
	return ""
}

// SHA256Hex returns the SHA-256 of b in lowercase hexadecimal.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func oneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}
