#include "protocol/jsonrpc.h"

#include <vector>

namespace dsls::protocol {

namespace {

// nlohmann's DOM builder copies every string out of the lexer's buffer; this one moves it
// (the SAX interface allows that), so a didOpen's text is held once, not twice, while parsing.
class MovingDomBuilder {
 public:
  explicit MovingDomBuilder(Json& root) : root_(root) {}

  bool null() { return place(nullptr); }
  bool boolean(bool value) { return place(value); }
  bool number_integer(Json::number_integer_t value) { return place(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return place(value); }
  bool number_float(Json::number_float_t value, const Json::string_t&) { return place(value); }
  bool string(Json::string_t& value) { return place(std::move(value)); }
  bool binary(Json::binary_t& value) { return place(Json::binary(std::move(value))); }
  bool start_object(std::size_t) { return open(Json::object()); }
  bool key(Json::string_t& key) {
    member_ = &(*open_.back())[std::move(key)];
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  // Puts a value where the parser is (the root, the next array element, the member whose key
  // came last) and returns where it went.
  template <typename V>
  Json* put(V&& value) {
    if (open_.empty()) {
      root_ = Json(std::forward<V>(value));
      return &root_;
    }
    Json& container = *open_.back();
    if (container.is_array()) {
      container.emplace_back(std::forward<V>(value));
      return &container.back();
    }
    *member_ = Json(std::forward<V>(value));
    return member_;
  }
  template <typename V>
  bool place(V&& value) {
    put(std::forward<V>(value));
    return true;
  }
  bool open(Json empty) {
    open_.push_back(put(std::move(empty)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  Json& root_;
  std::vector<Json*> open_;  // containers being filled, innermost last
  Json* member_ = nullptr;
};

}  // namespace

int nestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest >= limit) return deepest;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

namespace {

Incoming parseError(std::string message) {
  Incoming in;
  in.errorCode = ErrorCode::ParseError;
  in.errorMessage = std::move(message);
  return in;
}

Incoming notValidJson() { return parseError("message body is not valid JSON"); }

bool parseJson(std::string_view body, Json& msg) {
  // nlohmann's lexer ends the input at a NUL byte, so "{}\0garbage" would pass; JSON allows no
  // raw NUL anywhere (a string holds one only escaped).
  if (body.find('\0') != std::string_view::npos) return false;
  MovingDomBuilder builder(msg);
  return Json::sax_parse(body.begin(), body.end(), &builder);
}

bool nestedTooDeep(std::string_view body) { return nestingDepth(body, kMaxNestingDepth + 1) > kMaxNestingDepth; }

Incoming tooDeep() {
  return parseError("message nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
}

// Puts a lifted value back where it was taken from; the envelope holds "" there.
void putBack(Json& msg, LiftedString& lifted) {
  Json* at = &msg;
  for (const PathStep& step : lifted.path) {
    if (const auto* key = std::get_if<std::string>(&step)) {
      if (!at->is_object()) return;
      auto it = at->find(*key);
      if (it == at->end()) return;
      at = &*it;
    } else {
      std::size_t index = std::get<std::size_t>(step);
      if (!at->is_array() || index >= at->size()) return;
      at = &(*at)[index];
    }
  }
  if (at->is_string() && at->get_ref<const std::string&>().empty()) *at = std::move(lifted.value);
}

Incoming classify(Json&& msg) {
  Incoming in;
  if (!msg.is_object()) {
    in.errorMessage = msg.is_array() ? "batch messages are not supported by the Language Server Protocol"
                                     : "a JSON-RPC message must be an object";
    return in;
  }
  auto version = msg.find("jsonrpc");
  if (version == msg.end() || *version != "2.0") {
    in.errorMessage = "missing \"jsonrpc\": \"2.0\"";
    if (auto id = msg.find("id"); id != msg.end() && (id->is_number_integer() || id->is_string())) in.id = *id;
    return in;
  }
  auto id = msg.find("id");
  bool hasId = id != msg.end();
  if (hasId) {
    if (!id->is_number_integer() && !id->is_string() && !id->is_null()) {
      in.errorMessage = "\"id\" must be an integer or a string";
      return in;
    }
    in.id = *id;
  }
  auto method = msg.find("method");
  if (method != msg.end()) {
    if (!method->is_string()) {
      in.errorMessage = "\"method\" must be a string";
      return in;
    }
    in.method = method->get<std::string>();
    // "params": null is sent by some clients (Eglot's shutdown) and means no params.
    if (auto params = msg.find("params"); params != msg.end() && !params->is_null()) {
      if (!params->is_object() && !params->is_array()) {
        in.errorCode = ErrorCode::InvalidParams;
        in.errorMessage = "\"params\" must be an object or an array";
        return in;
      }
      in.params = std::move(*params);  // a didOpen's text moves, not copied
    }
    in.kind = hasId ? Incoming::Kind::Request : Incoming::Kind::Notification;
    return in;
  }
  if (hasId && (msg.contains("result") || msg.contains("error"))) {
    in.kind = Incoming::Kind::Response;
    if (auto r = msg.find("result"); r != msg.end()) in.result = std::move(*r);
    if (auto e = msg.find("error"); e != msg.end()) in.error = std::move(*e);
    return in;
  }
  in.errorMessage = "message has neither \"method\" nor \"result\"/\"error\"";
  return in;
}

}  // namespace


Incoming parseMessage(std::string_view body) {
  if (nestedTooDeep(body)) return tooDeep();
  Json msg;
  if (!parseJson(body, msg)) return notValidJson();
  return classify(std::move(msg));
}

Incoming parseOwnedMessage(std::string&& body, std::size_t liftBytes) {
  if (nestedTooDeep(body)) return tooDeep();
  LiftedBody lifted;
  switch (liftLargeStrings(body, lifted, liftBytes)) {
    case LiftOutcome::None:
      return parseMessage(std::string_view(body));
    case LiftOutcome::Malformed:
      return notValidJson();
    case LiftOutcome::Lifted:
      break;
  }
  Json msg;
  if (!parseJson(lifted.envelope, msg)) return notValidJson();
  for (LiftedString& value : lifted.strings) putBack(msg, value);
  return classify(std::move(msg));
}


Json makeResponse(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json makeError(const Json& id, ErrorCode code, std::string_view message) {
  return Json{{"jsonrpc", "2.0"},
              {"id", id},
              {"error", {{"code", static_cast<int>(code)}, {"message", std::string(message)}}}};
}

Json makeNotification(std::string_view method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}};
}

Json makeRequest(const Json& id, std::string_view method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", std::move(params)}};
}

}  // namespace dsls::protocol
