package jsshape

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/tree"
)

// BenchmarkCheck measures js-shape with its worker warm, as a campaign
// runs it: the base loaded once (the shape of a tree loaded before is
// kept), a new follow-up each time. It reports checks/s.
func BenchmarkCheck(b *testing.B) {
	testtier.Tools(b, "apt-get install nodejs (20 or newer)", "node")
	const module = `export var Tile;
(function (Tile) {
    Tile[Tile["Empty"] = 0] = "Empty";
    Tile[Tile["Wall"] = 1] = "Wall";
})(Tile || (Tile = {}));
export const BOARD_WIDTH = 32;
export class World {
    static size = 4;
    entities = [];
    tick = 0;
    paused;
    step(dt) { this.tick++; }
}
export function blocks(tile) { return tile === Tile.Wall; }
`
	o := tree.Tree{"game.js": []byte(module)}
	c := &Check{File: "game.js", Added: []Member{{Name: "zqlimit", In: InStatic, Of: "World", After: "size"}}, Values: []string{"7"}}
	warm := tree.Tree{"game.js": []byte(module + "World.zqlimit = 7;\n")}
	if v := c.DecideContext(context.Background(), o, warm); len(v.Fails)+len(v.Undecided) > 0 {
		b.Fatalf("%+v", v)
	}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		o2 := tree.Tree{"game.js": fmt.Appendf(nil, "%sWorld.zqlimit = 7;\n// %d\n", module, i)}
		if v := c.DecideContext(context.Background(), o, o2); len(v.Fails)+len(v.Undecided) > 0 {
			b.Fatalf("%+v", v)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "checks/s")
}
