//go:build !notext

package httpapi

import (
	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/textapi"
)

// textOperations are the page-text family's operations (SPEC G).
func textOperations() []core.Operation { return textapi.Operations() }
