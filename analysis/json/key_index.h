// Duplicate-key lookup for one object while it is being parsed.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/json/document.h"

namespace dsls::json {

// Finds the first member with a key among all but the last one (the member
// being checked): a linear scan for small objects, a hash map once an object
// grows large, so a huge object stays linear time.
class KeyIndex {
 public:
  explicit KeyIndex(const std::vector<Member>& members) : members_(members) {}

  const Member* findEarlier(const std::string& key) {
    const std::size_t earlier = members_.size() - 1;
    if (earlier <= kLinearLimit) {
      for (std::size_t i = 0; i < earlier; ++i)
        if (members_[i].key == key) return &members_[i];
      return nullptr;
    }
    if (map_.empty())
      for (std::size_t i = 0; i < earlier; ++i) map_.emplace(members_[i].key, i);
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &members_[it->second];
  }

  // Call once the last member has been checked.
  void checked() {
    if (!map_.empty()) map_.emplace(members_.back().key, members_.size() - 1);
  }

 private:
  static constexpr std::size_t kLinearLimit = 16;
  const std::vector<Member>& members_;
  std::unordered_map<std::string, std::size_t> map_;
};

}  // namespace dsls::json
