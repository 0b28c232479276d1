package pilot

import "github.com/docscore/docscore/cmd/docscore/internal/inputfile"

// readFile reads a configuration, prompt, manifest, sidecar or image
// whole under inputfile's default size limit (256 MiB), so that a path
// such as /dev/zero is refused instead of filling the memory.
var readFile = inputfile.Reader{}.ReadFile
