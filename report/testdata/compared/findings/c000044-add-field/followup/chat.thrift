// A small chat service: rooms, members and messages.
namespace cpp chat
namespace py chat

const i32 MAX_MESSAGE_LENGTH = 4000
const i32 HISTORY_PAGE = 100
const string SYSTEM_USER = "system"

enum Role {
  GUEST,
  MEMBER,
  MODERATOR,
  OWNER,
}

enum MessageKind {
  TEXT = 1,
  IMAGE,
  FILE,
  SYSTEM = 99,
}

struct User {
  1: required string handle,
  2: string display_name,
  3: optional string avatar_url,
  4: bool bot = false,
}

struct Room {
  1: required string id,
  2: string topic,
  3: list<string> members,
  4: map<string, Role> roles,
  5: bool archived,
}

struct Message {
  1: required string room,
  2: required string author,
  3: MessageKind kind = MessageKind.TEXT,
  4: string body,
  5: i64 sent_at,
  6: optional string reply_to,
  8: optional i64 zqzzknwh,
  7: optional i32 edits,
}

exception Forbidden {
  1: string reason,
}

exception NoSuchRoom {
  1: string room,
}

service Chat {
  Room create_room(1: string topic, 2: User owner),
  void join(1: string room, 2: User user) throws (1: NoSuchRoom missing, 2: Forbidden no),
  void leave(1: string room, 2: string handle),
  Message post(1: Message message) throws (1: NoSuchRoom missing, 2: Forbidden no),
  list<Message> history(1: string room, 2: i64 before, 3: i32 count),
  oneway void typing(1: string room, 2: string handle),
}
