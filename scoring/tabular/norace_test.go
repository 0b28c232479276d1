//go:build !race && !js

package tabular_test

const slowBuild = false
