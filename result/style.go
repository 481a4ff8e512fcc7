package result

import (
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/namecase"
)

// Style says what a target's output makes of the program's names, so that
// signatures know them there: the case forms in which the output writes a
// name, and the words of the output that are not names of the program
// (fixed names of the generated code, such as cllc's ctx and next_state).
// Words that are keywords of common languages (C, C++, Java, Python, Go,
// JavaScript) are generic already. The zero Style is the forms of C
// generators (as written, snake, upper snake) and no more generic words.
type Style struct {
	// Forms are names of namecase forms (written, snake, upper, lower,
	// caps, camel, pascal, kebab); nil means namecase.DefaultForms.
	Forms   []string `json:"forms,omitempty"`
	Generic []string `json:"generic,omitempty"`
}

// IsZero tells whether s is the default style.
func (s Style) IsZero() bool { return len(s.Forms) == 0 && len(s.Generic) == 0 }

// Check returns an error naming the first form of s that namecase does
// not know.
func (s Style) Check() error {
	for _, f := range s.Forms {
		if _, ok := namecase.Form(f); !ok {
			return fmt.Errorf("unknown name form %q (want one of %s)", f, strings.Join(namecase.Names(), ", "))
		}
	}
	return nil
}
