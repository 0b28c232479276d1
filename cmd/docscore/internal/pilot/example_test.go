package pilot_test

import (
	"fmt"

	"github.com/docscore/docscore/cmd/docscore/internal/pilot"
)

func ExampleParseChatResponse() {
	ans, err := pilot.ParseChatResponse([]byte(`{"choices": [{"message": {"role": "assistant", "content": "TOTAL 174,600"},
		"finish_reason": "length"}], "usage": {"prompt_tokens": 1200, "completion_tokens": 4096}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q, finish %s, %d completion tokens\n", *ans.Content, *ans.FinishReason, ans.Usage.CompletionTokens)
	_, err = pilot.ParseChatResponse([]byte(`{"object": "error", "message": "model not found"}`))
	fmt.Println(err)
	// Output:
	// "TOTAL 174,600", finish length, 4096 completion tokens
	// expected a non-empty "choices" array
}

func ExampleCommandEngine_CommandLine() {
	e, err := pilot.NewCommand("tesseract {image} - --psm 6")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.CommandLine("/data/receipts/it's here.png", "cord-test-0004"))
	// Output: tesseract '/data/receipts/it'\''s here.png' - --psm 6
}

func ExampleCanonicalExtra() {
	extra, err := pilot.CanonicalExtra([]byte(`{"top_p": 1.0, "skip_special_tokens": false}`))
	fmt.Println(string(extra), err)
	_, err = pilot.CanonicalExtra([]byte(`{"max_tokens": 100}`))
	fmt.Println(err)
	// Output:
	// {"skip_special_tokens":false,"top_p":1.0} <nil>
	// extra request members: "max_tokens" is set by docscore: use its own setting (--model, --max-tokens, --temperature)
}

func ExampleParseDuration() {
	for _, s := range []string{"120s", "2m", "90"} {
		d, _ := pilot.ParseDuration(s)
		fmt.Println(d)
	}
	// Output:
	// 2m0s
	// 2m0s
	// 1m30s
}

func ExamplePhaseName() {
	fmt.Println(pilot.PhaseName(1), pilot.PhaseName(4))
	// Output: c1 c4
}
