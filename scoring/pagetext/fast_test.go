//go:build !race && !js

package pagetext

const slowBuild = false
