package mdtext

import "testing"

func TestFormats(t *testing.T) {
	half := 0.5
	for _, tc := range []struct{ got, want string }{
		{Line(" a \n b\tc "), "a b c"},
		{Cell("x | y\nz"), `x \| y z`},
		{Score(1), "1"},
		{Score(0.12345), "0.1235"},
		{Score(0.5), "0.5"},
		{Coefficient(&half, "unused"), "0.5"},
		{Coefficient(nil, "one judge"), "undefined (one judge)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
