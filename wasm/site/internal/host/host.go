//go:build js && wasm

// Package host hands requests and answers between JavaScript and a
// bridge.Dispatcher: it is the syscall/js half shared by the site's
// WebAssembly files (docscore.wasm, receipts.wasm, harness.wasm), which
// run side by side in one Web Worker, each under its own global name.
package host

import (
	"syscall/js"

	"github.com/docscore/docscore/wasm/bridge"
)

// Serve exposes d as
//
//	globalThis[name].call(method, requestJSON[, texts[, bytes]]) → Promise<answer>
//
// (texts, when given, is an array of strings the request's files name by
// part: api.ResolveParts; bytes, when given, a Uint8Array the method
// reads as bridge.Request.Bytes) and globalThis[name].version; it calls
// globalThis[name+"Ready"](version) when the host defined it, and blocks
// forever. The answer is the envelope string, or for a raw result
// (bridge.Answer) an object {envelope, raw}: raw is a Uint8Array of the
// report's bytes, which stay bytes — decoding megabytes of report into a
// string is left to whoever needs the text. The promise always resolves,
// with an error envelope when the call failed; the work runs on a
// goroutine.
func Serve(name string, d *bridge.Dispatcher) {
	promise := js.Global().Get("Promise")
	object := js.Global().Get("Object")
	uint8Array := js.Global().Get("Uint8Array")
	call := js.FuncOf(func(this js.Value, args []js.Value) any {
		method, request, parts, data := stringArg(args, 0), stringArg(args, 1), stringsArg(args, 2), bytesArg(args, 3)
		var executor js.Func
		executor = js.FuncOf(func(this js.Value, p []js.Value) any {
			resolve := p[0]
			go func() {
				a := d.AnswerRequest(method, bridge.Request{JSON: []byte(request), Parts: parts, Bytes: data})
				executor.Release()
				if !a.IsRaw {
					resolve.Invoke(a.Envelope)
					return
				}
				raw := uint8Array.New(len(a.Raw))
				js.CopyBytesToJS(raw, a.Raw)
				answer := object.New()
				answer.Set("envelope", a.Envelope)
				answer.Set("raw", raw)
				resolve.Invoke(answer)
			}()
			return nil
		})
		return promise.New(executor)
	})
	api := object.New()
	api.Set("call", call)
	api.Set("version", bridge.Version)
	js.Global().Set(name, api)
	if ready := js.Global().Get(name + "Ready"); ready.Type() == js.TypeFunction {
		ready.Invoke(bridge.Version)
	}
	select {}
}

// stringArg returns argument i as a string; a missing or non-string
// argument is "", which the dispatcher answers with an error envelope.
func stringArg(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}

// bytesArg returns argument i, a Uint8Array, as bytes; anything else is
// nil.
func bytesArg(args []js.Value, i int) []byte {
	if i >= len(args) || args[i].Type() != js.TypeObject || args[i].Get("byteLength").Type() != js.TypeNumber {
		return nil
	}
	b := make([]byte, args[i].Get("byteLength").Int())
	js.CopyBytesToGo(b, args[i])
	return b
}

// stringsArg returns argument i, an array of strings, as a slice; a
// missing argument is nil, and a non-string element "", which a file
// naming it reads as empty.
func stringsArg(args []js.Value, i int) []string {
	if i >= len(args) || args[i].Type() != js.TypeObject {
		return nil
	}
	a := args[i]
	n := a.Length()
	out := make([]string, n)
	for k := range out {
		if v := a.Index(k); v.Type() == js.TypeString {
			out[k] = v.String()
		}
	}
	return out
}
