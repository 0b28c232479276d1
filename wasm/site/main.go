//go:build js && wasm

// Command site is the WebAssembly entry point of the static site. It runs
// inside a Web Worker (never on the page's main thread) and exposes
//
//	globalThis.docscore.call(method, requestJSON) → Promise<envelopeJSON>
//
// where the envelope is wasm/bridge's {"error", "result"}. The promise
// always resolves, with an error envelope when the call failed; the work
// runs on a goroutine. When it is ready it calls
// globalThis.docscoreReady(version) if the host defined it.
package main

import (
	"syscall/js"

	"github.com/docscore/docscore/wasm/bridge"
)

func main() {
	promise := js.Global().Get("Promise")
	call := js.FuncOf(func(this js.Value, args []js.Value) any {
		method, request := stringArg(args, 0), stringArg(args, 1)
		var executor js.Func
		executor = js.FuncOf(func(this js.Value, p []js.Value) any {
			resolve := p[0]
			go func() {
				out := bridge.Call(method, request)
				executor.Release()
				resolve.Invoke(out)
			}()
			return nil
		})
		return promise.New(executor)
	})
	api := js.Global().Get("Object").New()
	api.Set("call", call)
	api.Set("version", bridge.Version)
	js.Global().Set("docscore", api)
	if ready := js.Global().Get("docscoreReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(bridge.Version)
	}
	select {}
}

// stringArg returns argument i as a string; a missing or non-string
// argument is "", which the bridge answers with an error envelope.
func stringArg(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}
