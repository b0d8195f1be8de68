// mskb/task.cpp — cases, instances and the task registry.
#include "mskb/task.h"

#include <stdexcept>

namespace ucut::mskb {

const char* precision_name(Precision p) { return p == Precision::fp32 ? "fp32" : "bf16"; }

int64_t Case::at(const std::string& name) const {
  for (const auto& [n, v] : sizes)
    if (n == name) return v;
  throw std::out_of_range("the case " + label() + " has no size called " + name);
}

std::string Case::label() const {
  std::string s;
  for (const auto& [n, v] : sizes) s += (s.empty() ? "" : " ") + n + "=" + std::to_string(v);
  return s;
}

std::vector<Case> sweep(const std::vector<std::pair<std::string, std::vector<int64_t>>>& axes) {
  std::vector<Case> out = {Case{}};
  for (const auto& [name, values] : axes) {
    std::vector<Case> next;
    for (const Case& c : out)
      for (int64_t v : values) {
        Case d = c;
        d.sizes.emplace_back(name, v);
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  return out;
}

const std::vector<double>& Instance::array(const std::string& name) const {
  auto it = arrays.find(name);
  if (it == arrays.end()) throw std::out_of_range("the instance has no array called " + name);
  return it->second;
}

double Instance::scalar(const std::string& name) const {
  auto it = scalars.find(name);
  if (it == scalars.end()) throw std::out_of_range("the instance has no scalar called " + name);
  return it->second;
}

const std::vector<Task>& all_tasks() {
  static const std::vector<Task> tasks = [] {
    std::vector<Task> t;
    add_dense_la_tasks(t);
    add_sparse_tasks(t);
    add_normalization_tasks(t);
    add_activation_tasks(t);
    add_llm_tasks(t);
    add_loss_tasks(t);
    add_tensor_tasks(t);
    add_stencil_tasks(t);
    add_math_tasks(t);
    for (Task& task : t)
      if (!task.reference_cost) task.reference_cost = task.complexity;
    return t;
  }();
  return tasks;
}

const Task* find_task(const std::string& name) {
  std::string base = name;
  if (base.size() > 5 && base.ends_with("_bf16")) base.resize(base.size() - 5);
  for (const Task& t : all_tasks())
    if (t.name == base) return &t;
  return nullptr;
}

}  // namespace ucut::mskb
