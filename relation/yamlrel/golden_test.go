package yamlrel

// The module's golden files are regenerated with go test ./... -update;
// this package has none, but accepts the flag.
import _ "github.com/mcpt-tool/mcpt/internal/golden"
