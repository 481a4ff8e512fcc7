package config

import "github.com/mcpt-tool/mcpt/internal/yamlpos"

// The positioned YAML of a configuration (see package yamlpos).
type (
	// Pos is a position in a configuration file.
	Pos = yamlpos.Pos
	// Error is a positioned configuration error.
	Error = yamlpos.Error
	// ErrorList collects the errors of a configuration.
	ErrorList = yamlpos.ErrorList
	// String is a string with its position.
	String = yamlpos.String
	// Int is an integer with its position.
	Int = yamlpos.Int
)

// MaxDepth is how deep YAML collections may nest.
const MaxDepth = yamlpos.MaxDepth

// Errorf returns a positioned error.
func Errorf(pos Pos, format string, args ...any) *Error { return yamlpos.Errorf(pos, format, args...) }

// Decode decodes YAML data read from file into v strictly, with positions.
func Decode(file string, data []byte, v any) error { return yamlpos.Decode(file, data, v) }
