// lower --batch (batch.h): parses the batch file, runs one lower process per entry on a
// bounded set of threads, prints one progress line and writes the summary.
#include "apps/lower/batch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "apps/common/atomic_file.h"
#include "apps/common/path_collision.h"
#include "apps/common/printable.h"
#include "apps/inspect/pte_summary.h"

extern char** environ;

namespace ember::aot {
namespace {

using nlohmann::json;

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();  // numbers
}

Error bad_entry(size_t i, const std::string& what) {
  return invalid_argument("batch file: entry " + std::to_string(i) + ": " + what);
}

// The lower flags an entry may set (issue #33: an unknown key such as "o=x" became
// "--o=x=..." and silently redirected the output). input/output are the entry's own keys;
// batch, o, jobs, summary and method are refused with their own message.
const std::set<std::string>& entry_flags() {
  static const std::set<std::string> flags = {
      "recipe", "memory_planner", "dump_dir", "verbose", "debug_out", "bundle_cases", "bundle_out",
      "custom_ops", "calibration_list", "pass", "compile_spec", "calibrate", "bundle_inputs",
      "bundle_outputs", "max_dim"};
  return flags;
}

}  // namespace

Result<std::vector<BatchJob>> parse_batch_jobs(const std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return invalid_argument("batch file: not valid JSON");
  if (!doc.is_array()) return invalid_argument("batch file: expected a JSON list of objects");
  std::vector<BatchJob> jobs;
  std::set<std::string> outputs;
  for (size_t i = 0; i < doc.size(); ++i) {
    const json& e = doc[i];
    if (!e.is_object()) return bad_entry(i, "expected an object");
    BatchJob job;
    job.index = i;
    for (const char* key : {"input", "output"}) {
      auto it = e.find(key);
      if (it == e.end() || !it->is_string() || it->get<std::string>().empty()) {
        return bad_entry(i, std::string("'") + key + "' must be a non-empty string");
      }
    }
    job.input = e["input"].get<std::string>();
    job.output = e["output"].get<std::string>();
    if (!outputs.insert(job.output).second) {
      return bad_entry(i, "output '" + job.output + "' is also the output of an earlier entry");
    }
    job.args = {job.input, "-o", job.output};
    for (auto it = e.begin(); it != e.end(); ++it) {  // nlohmann orders keys: deterministic
      const std::string& key = it.key();
      if (key == "input" || key == "output") continue;
      if (key == "batch" || key == "o" || key == "jobs" || key == "summary" || key == "method") {
        return bad_entry(i, "'" + key + "' cannot be set per entry");
      }
      if (entry_flags().count(key) == 0) {
        std::string known;
        for (const std::string& f : entry_flags()) known += (known.empty() ? "" : ", ") + f;
        return bad_entry(i, "unknown key '" + apps::printable(key) + "' (an entry takes input, output and the lower flags " +
                                known + ")");
      }
      const json& v = it.value();
      if (v.is_array()) {
        for (const json& item : v) {
          if (item.is_array() || item.is_object() || item.is_null()) {
            return bad_entry(i, "'" + key + "': list items must be strings, numbers or booleans");
          }
          job.args.push_back("--" + key + "=" + scalar_text(item));
        }
      } else if (v.is_object()) {
        for (auto kv = v.begin(); kv != v.end(); ++kv) {
          if (kv.value().is_array() || kv.value().is_object() || kv.value().is_null()) {
            return bad_entry(i, "'" + key + "." + kv.key() + "' must be a string, number or boolean");
          }
          job.args.push_back("--" + key + "=" + kv.key() + "=" + scalar_text(kv.value()));
        }
      } else if (v.is_null()) {
        return bad_entry(i, "'" + key + "' is null");
      } else {
        job.args.push_back("--" + key + "=" + scalar_text(v));
      }
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Error check_batch_output(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return fail(Error::NotFound, "lower exited 0 but its output '" + path + "' does not exist");
  }
  if (!S_ISREG(st.st_mode) || access(path.c_str(), R_OK) != 0) {
    return fail(Error::AccessFailed, "lower exited 0 but its output '" + path + "' is not a readable file");
  }
  return Error::Ok;
}

bool is_batch_invocation(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--batch") == 0 || std::strncmp(argv[i], "--batch=", 8) == 0) return true;
  }
  return false;
}

namespace {

struct Outcome {
  bool ok = false;
  int status = -1;
  std::string error;  // the child's last "lower: ..." line, or what went wrong
  double seconds = 0;
};

std::string resolve_from(const std::string& dir, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  return dir + "/" + path;
}

std::string read_text(int fd) {
  std::string text;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  return text;
}

// Runs `exe` with `args` in `dir` (stdout discarded, stderr captured), without
// BUILD_WORKING_DIRECTORY so that paths are taken relative to `dir`.
Outcome run_lower(const std::string& exe, const std::string& dir, const BatchJob& job,
                  const std::vector<char*>& envp) {
  Outcome o;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> strings = {exe};
  strings.insert(strings.end(), job.args.begin(), job.args.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const char* tmpdir = std::getenv("TMPDIR");
  std::string templ = std::string(tmpdir != nullptr && *tmpdir ? tmpdir : "/tmp") + "/ember_batch_XXXXXX";
  std::vector<char> templ_buf(templ.begin(), templ.end());
  templ_buf.push_back('\0');
  int err_fd = mkstemp(templ_buf.data());
  if (err_fd < 0) {
    o.error = "cannot create a temporary file for its messages";
    return o;
  }
  unlink(templ_buf.data());
  const pid_t pid = fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, 1);
    dup2(err_fd, 2);
    if (chdir(dir.c_str()) != 0) _exit(126);
    execve(exe.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  if (pid < 0) {
    close(err_fd);
    o.error = "cannot start lower (fork failed)";
    return o;
  }
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string messages = read_text(err_fd);
  close(err_fd);
  o.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  o.ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (!o.ok) {
    // The child's last line starting with "lower: " (its named error), else all its messages.
    std::istringstream lines(messages);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("lower: ", 0) == 0 && line.rfind("lower: warning:", 0) != 0) o.error = line.substr(7);
    }
    if (o.error.empty()) {
      o.error = messages.empty() ? "lower exited with status " + std::to_string(o.status) : messages;
      while (!o.error.empty() && o.error.back() == '\n') o.error.pop_back();
    }
  }
  return o;
}

// The summary entry; an entry whose process succeeded but whose output is not a readable
// regular file is turned into a failure (issue #33: the summary reported a file that did not
// exist), so `*o` may change.
json summary_entry(const BatchJob& job, Outcome* o, const std::string& output_path) {
  json e;
  e["index"] = job.index;
  e["input"] = job.input;
  e["output"] = job.output;
  e["seconds"] = o->seconds;
  std::ifstream f;
  if (o->ok) {
    if (Error err = check_batch_output(output_path); err != Error::Ok) {
      o->ok = false;
      o->error = format_error(err);
    } else {
      f.open(output_path, std::ios::binary);
    }
  }
  e["ok"] = o->ok;
  if (!o->ok) {
    e["error"] = o->error;
    return e;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  e["bytes"] = bytes.size();
  auto s = summarize_pte(bytes);
  if (!s.ok()) {
    e["summary_error"] = format_error(s.error());
    return e;
  }
  json methods = json::array();
  for (const PteMethodSummary& m : s->methods) {
    json jm;
    jm["name"] = m.name;
    jm["ops"] = m.op_histogram;
    json delegates = json::array();
    for (const auto& d : m.delegates) delegates.push_back({{"backend", d.first}, {"bytes", d.second}});
    jm["partitions"] = delegates;
    jm["arena_bytes"] = m.arena_bytes;
    jm["instructions"] = m.num_instructions;
    methods.push_back(jm);
  }
  e["methods"] = methods;
  return e;
}

int usage(const std::string& why) {
  std::fprintf(stderr, "lower: %s\nusage: lower --batch FILE.json [--jobs N] [--summary OUT.json]\n",
               why.c_str());
  return 2;
}

}  // namespace

int run_batch(int argc, char** argv) {
  std::string batch_file, summary_file;
  long jobs_flag = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], value;
    auto take = [&](const char* name, std::string* out) {
      const std::string flag = std::string("--") + name;
      if (a == flag && i + 1 < argc) {
        *out = argv[++i];
        return true;
      }
      if (a.rfind(flag + "=", 0) == 0) {
        *out = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    if (take("batch", &batch_file) || take("summary", &summary_file)) continue;
    if (take("jobs", &value)) {
      jobs_flag = std::strtol(value.c_str(), nullptr, 10);
      if (jobs_flag < 1) return usage("--jobs expects a positive number, got '" + value + "'");
      continue;
    }
    return usage("--batch takes no other arguments (got '" + a + "'); put lower flags in the batch file");
  }
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  auto resolve = [&](const std::string& p) {
    return (cwd == nullptr || p.empty() || p[0] == '/') ? p : std::string(cwd) + "/" + p;
  };
  const std::string path = resolve(batch_file);
  struct stat batch_stat;
  if (stat(path.c_str(), &batch_stat) == 0 && !S_ISREG(batch_stat.st_mode)) {  // a FIFO would block
    std::fprintf(stderr, "lower: %s\n",
                 format_error(fail(Error::AccessFailed, "batch file '" + path + "' is not a regular file")).c_str());
    return 2;
  }
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "lower: %s\n", format_error(fail(Error::AccessFailed, "cannot read batch file '" + path + "'")).c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = parse_batch_jobs(text.str());
  if (!parsed.ok()) {
    std::fprintf(stderr, "lower: %s ('%s')\n", format_error(parsed.error()).c_str(), path.c_str());
    return 2;
  }
  std::vector<BatchJob> jobs = std::move(parsed.get());
  const size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (dir[0] != '/') {
    char buf[4096];
    if (getcwd(buf, sizeof(buf)) != nullptr) dir = std::string(buf) + "/" + dir;
  }
  // Issue #33: `same.pte` and `./same.pte` lowered into one file ("2 of 2 lowered"), and one
  // entry's output overwrote another's input. Every output against every input, the batch
  // file, the summary and each other, before anything runs.
  std::vector<apps::PathUse> inputs = {{"--batch", path}};
  std::vector<apps::PathUse> outputs;
  for (const BatchJob& job : jobs) {
    const std::string at = "batch entry " + std::to_string(job.index);
    inputs.push_back({at + " input", resolve_from(dir, job.input)});
    outputs.push_back({at + " output", resolve_from(dir, job.output)});
  }
  if (!summary_file.empty()) outputs.push_back({"--summary", resolve(summary_file)});
  if (Error err = apps::check_path_collisions(inputs, outputs); err != Error::Ok) {
    std::fprintf(stderr, "lower: %s\n", format_error(err).c_str());
    return 2;
  }
  char exe_buf[4096];
  const ssize_t n = readlink("/proc/self/exe", exe_buf, sizeof(exe_buf) - 1);
  if (n <= 0) return usage("cannot find the lower binary (/proc/self/exe)");
  const std::string exe(exe_buf, static_cast<size_t>(n));

  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "BUILD_WORKING_DIRECTORY=", 24) != 0) env_strings.push_back(*e);
  }
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t workers = std::min(jobs.size(), static_cast<size_t>(jobs_flag > 0 ? jobs_flag : cores));
  std::vector<Outcome> outcomes(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex mu;
  size_t done = 0, failed = 0;
  const bool tty = isatty(2) != 0;
  const auto start = std::chrono::steady_clock::now();
  auto progress = [&](const BatchJob* finished, const Outcome* o) {  // holds mu
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (finished != nullptr && !o->ok) {
      std::fprintf(stderr, "%slower --batch: entry %zu (%s): %s\n", tty ? "\r\033[K" : "", finished->index,
                   apps::printable(finished->input).c_str(), apps::printable_message(o->error).c_str());
    }
    std::fprintf(stderr, "%s[batch] %zu/%zu done, %zu failed, %zu jobs, %.1f s%s", tty ? "\r\033[K" : "", done,
                 jobs.size(), failed, workers, secs, tty ? "" : "\n");
    std::fflush(stderr);
  };
  {
    std::lock_guard<std::mutex> lock(mu);
    progress(nullptr, nullptr);
  }
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < jobs.size(); i = next++) {
        outcomes[i] = run_lower(exe, dir, jobs[i], envp);
        std::lock_guard<std::mutex> lock(mu);
        ++done;
        if (!outcomes[i].ok) ++failed;
        progress(&jobs[i], &outcomes[i]);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (tty) std::fprintf(stderr, "\n");

  json summary = json::array();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const bool was_ok = outcomes[i].ok;
    summary.push_back(summary_entry(jobs[i], &outcomes[i], resolve_from(dir, jobs[i].output)));
    if (was_ok && !outcomes[i].ok) {
      ++failed;
      std::fprintf(stderr, "lower --batch: entry %zu (%s): %s\n", jobs[i].index, apps::printable(jobs[i].input).c_str(),
                   apps::printable_message(outcomes[i].error).c_str());
    }
  }
  if (!summary_file.empty()) {  // atomically: a full disk leaves the previous summary, exit 1
    if (Error err = apps::write_file_atomically(resolve(summary_file),
                                                summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
        err != Error::Ok) {
      std::fprintf(stderr, "lower: %s\n", format_error(err).c_str());
      return 1;
    }
  }
  std::printf("lower --batch: %zu of %zu models lowered\n", jobs.size() - failed, jobs.size());
  return failed == 0 ? 0 : 1;
}

}  // namespace ember::aot
