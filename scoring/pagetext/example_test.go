package pagetext_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/pagetext"
)

func ExampleScorePage() {
	gt := pagetext.NormalizeSBB("Dies ist ein Beiſpielſatz!")
	ocr := pagetext.NormalizeSBB("Dies iſt ein Beifpielſatz.")
	p, err := pagetext.ScorePage(gt, ocr, pagetext.AlignLimits{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("CER %d/%d, WER %d/%d, bag-of-words F1 %.2f\n", p.CharEdits, p.GTChars, p.WordEdits, p.GTWords, p.BowF1)
	for _, op := range p.CharOps {
		if op.Kind == pagetext.Sub {
			fmt.Printf("%s → %s\n", p.GTClusters[op.A], p.OCRClusters[op.B])
		}
	}
	// Output:
	// CER 3/26, WER 2/4, bag-of-words F1 0.50
	// s → ſ
	// ſ → f
	// ! → .
}

func ExampleExtract() {
	alto := `<alto xmlns="http://www.loc.gov/standards/alto/ns-v3#"><Layout><Page><PrintSpace><TextBlock>
<TextLine><String CONTENT="Hartkopf,"/><String CONTENT="der"/><String CONTENT="Amtm&#xE42C;nnin"/></TextLine>
<TextLine><String CONTENT="ver&#x2E17;"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>`
	ex, err := pagetext.Extract("page.alto.xml", []byte(alto), pagetext.ExtractOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s:\n%s\n", ex.Kind, ex.Text)
	// Output:
	// alto:
	// Hartkopf, der Amtmännin
	// ver-
}
