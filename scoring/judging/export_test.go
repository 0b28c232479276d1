package judging

// Helpers of the package's own tests, for its external tests (the ones
// that need the harness: a judging_test file may import it, a judging one
// may not).
var (
	Golden      = golden
	Claims      = claims
	Fixed       = fixed
	Variant     = variant
	PanelStage  = panelStage
	ValidAnswer = validAnswer
)

// ScriptedReader returns a ground-truth provider adapter named name that
// answers every request with answer(req).
func ScriptedReader(name string, answer func(req ModelRequest) string) ModelAdapter {
	return (&reader{name: name, answer: answer}).adapter()
}
