// Written for mcpt: a layout seen in real projects (brace on the next
// line, one-line enums, annotations and doc comments between members, CRLF).
namespace cpp ours.layout
namespace py ours.layout

enum TagType { STRING, DOUBLE, BOOL }

enum Level
{
	LOW = 1;
	HIGH = 2;
}

/** A tag with its value. */
struct Tag
{
	/** The key. */
	1: required string key (go.tag = "json:\"key\"")
	// The kind of value.
	2: TagType kind = TagType.STRING;
	3: optional Level level
	4: list<string> (python.immutable = "") values
} (final = "true")

exception Missing { 1: string key }

service Tags
{
	Tag get(1: string key) throws (1: Missing missing)
	oneway void put(1: Tag tag)
}
