//go:build !race && !js

package receipts_test

const slowBuild = false
