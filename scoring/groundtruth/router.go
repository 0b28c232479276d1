package groundtruth

import (
	"context"
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/inputerr"
)

// DocumentMode says what GroundTruthRouter does with documents.
type DocumentMode string

// The document modes of GroundTruthRouter.
const (
	// DocumentPreserve (the default) keeps the original documents as the
	// only evidence.
	DocumentPreserve DocumentMode = "preserve"
	// DocumentMarkdown adds a local Markdown derivative of each document,
	// with authority "generated", beside (never instead of) the original.
	DocumentMarkdown DocumentMode = "markdown"
)

// The routes of GroundTruthRouter.
const (
	RouteDocuments = "documents"
	RouteImages    = "images"
)

// MarkdownDeriver converts a document to Markdown locally (a PDF text
// extractor, a converter command). It is supplied by the host.
type MarkdownDeriver func(ctx context.Context, doc evalcase.ReferenceArtifact) (string, error)

// GroundTruthRouter routes a complete input set:
//
//	all PDF/ODF documents  -> preserve the original sources as evidence
//	all images             -> preserve the sources, plus ImagePanel's consensus when set
//	DocumentMode markdown  -> add a local Markdown derivative per document (authority generated)
//	mixed or unsupported   -> an explicit error: prepare them separately
type GroundTruthRouter struct {
	ImagePanel   *GroundTruthPanel
	DocumentMode DocumentMode
	Markdown     MarkdownDeriver
}

// Prepared is what the router made of an input set.
type Prepared struct {
	Route string `json:"route"`
	// Sources are the original inputs, unchanged.
	Sources []evalcase.ReferenceArtifact `json:"sources"`
	// Derivatives are local Markdown derivatives (markdown mode):
	// authority generated, unscored until evaluated.
	Derivatives []evalcase.ReferenceArtifact `json:"derivatives"`
	// ImageReport is the image panel's generation (images with a panel).
	ImageReport *GroundTruthReport `json:"image_report"`
}

// IsDocument reports whether a reference is a PDF or an OpenDocument file.
func IsDocument(r evalcase.ReferenceArtifact) bool {
	return r.Kind == evalcase.KindPDF || r.MediaType == "application/pdf" || strings.HasPrefix(r.MediaType, "application/vnd.oasis.opendocument.")
}

// IsImage reports whether a reference is an image.
func IsImage(r evalcase.ReferenceArtifact) bool {
	return r.Kind == evalcase.KindImage || strings.HasPrefix(r.MediaType, "image/")
}

// Prepare routes refs for caseID. The route is decided by the complete
// set: a mixture of documents and images, or anything else, is an error.
func (r *GroundTruthRouter) Prepare(ctx context.Context, caseID string, refs []evalcase.ReferenceArtifact) (*Prepared, error) {
	mode := r.DocumentMode
	if mode == "" {
		mode = DocumentPreserve
	}
	if mode != DocumentPreserve && mode != DocumentMarkdown {
		return nil, inputerr.New("ground-truth router", 0, "document mode %q: expected preserve or markdown", mode)
	}
	if len(refs) == 0 {
		return nil, inputerr.New("ground-truth router", 0, "no inputs")
	}
	var docs, images, other []string
	for _, ref := range refs {
		switch {
		case IsDocument(ref):
			docs = append(docs, ref.ArtifactID)
		case IsImage(ref):
			images = append(images, ref.ArtifactID)
		default:
			other = append(other, fmt.Sprintf("%s (%s)", ref.ArtifactID, ref.MediaType))
		}
	}
	switch {
	case len(other) > 0:
		return nil, inputerr.New("ground-truth router", 0, "unsupported input(s) %s: expected PDF/ODF documents or images", strings.Join(other, ", "))
	case len(docs) > 0 && len(images) > 0:
		return nil, inputerr.New("ground-truth router", 0, "mixed inputs, %d document(s) (%s) and %d image(s) (%s): prepare documents and images separately", len(docs), strings.Join(docs, ", "), len(images), strings.Join(images, ", "))
	}
	p := &Prepared{Sources: refs, Derivatives: []evalcase.ReferenceArtifact{}}
	if len(docs) > 0 {
		p.Route = RouteDocuments
		if mode == DocumentMarkdown {
			if r.Markdown == nil {
				return nil, inputerr.New("ground-truth router", 0, "document mode markdown needs a Markdown deriver")
			}
			for _, d := range refs {
				text, err := r.Markdown(ctx, d)
				if err != nil {
					return nil, fmt.Errorf("markdown derivative of %s: %w", d.ArtifactID, err)
				}
				a, err := evalcase.ArtifactFromValue(text, evalcase.ArtifactOptions{
					ArtifactID: d.ArtifactID + ".md", Authority: evalcase.AuthorityGenerated, Kind: evalcase.KindMarkdown,
					Metadata: map[string]any{
						"derived_from": d.ArtifactID, "derived_from_sha256": d.SHA256, "derivative": "markdown",
						"status": "unscored",
						"note":   "a local, possibly lossy derivative for search and debugging; it never replaces the original document",
					},
				})
				if err != nil {
					return nil, err
				}
				p.Derivatives = append(p.Derivatives, a)
			}
		}
		return p, nil
	}
	p.Route = RouteImages
	if mode == DocumentMarkdown {
		return nil, inputerr.New("ground-truth router", 0, "document mode markdown derives text from documents; images go to the image panel")
	}
	if r.ImagePanel != nil {
		rep, err := r.ImagePanel.Generate(ctx, caseID, refs)
		if err != nil {
			return nil, err
		}
		p.ImageReport = rep
	}
	return p, nil
}
