#include "analysis/json/locate.h"

#include "analysis/json/path.h"

namespace dsls::json {
namespace {

bool contains(analysis::TextRange r, std::size_t offset) { return r.begin <= offset && offset <= r.end; }

// Strictly between the brackets of an object or array. An object read without
// its '{' (its first member starts where it does) encloses its start too; a
// container never closed runs to its end.
bool encloses(const Node& container, std::size_t offset) {
  const bool braceless = !container.members().empty() && container.members().front().range().begin == container.range.begin;
  const bool afterOpen = braceless ? offset >= container.range.begin : offset > container.range.begin;
  const bool beforeClose = container.closed ? offset < container.range.end : offset <= container.range.end;
  return afterOpen && beforeClose;
}

}  // namespace

Location locate(const Document& document, std::size_t offset) {
  Location loc;
  if (!document.root || !contains(document.root->range, offset)) return loc;
  const Node* current = &*document.root;
  while (true) {
    loc.node = current;
    // On a bracket of a container (not inside it), the member holding it stays the answer.
    if ((current->kind != Kind::Object && current->kind != Kind::Array) || !encloses(*current, offset)) return loc;
    loc.member = nullptr;
    if (current->kind == Kind::Object) {
      loc.enclosingObject = current;
      loc.enclosingObjectPath = loc.path;
      const Member* hit = nullptr;
      for (const Member& m : current->members()) {
        if (contains(m.range(), offset) || contains(m.keyRange, offset)) {
          hit = &m;
          break;
        }
      }
      if (!hit) return loc;
      loc.member = hit;
      loc.path.emplace_back(hit->key);
      if (contains(hit->keyRange, offset)) {
        loc.onKey = true;
        return loc;
      }
      if (!contains(hit->value.range, offset)) return loc;  // between the key and its value
      current = &hit->value;
    } else {
      const Node* next = nullptr;
      std::size_t index = 0;
      for (; index < current->elements().size(); ++index) {
        if (contains(current->elements()[index].range, offset)) {
          next = &current->elements()[index];
          break;
        }
      }
      if (!next) return loc;
      loc.path.push_back(indexPart(index));
      current = next;
    }
  }
}

}  // namespace dsls::json
