// Checks the documentation: README.md and docs/**/*.md.
//
//   doc_check --root DIR --links                  dead relative links and anchors; doc paths
//                                                 the program's sources name (docs/....md)
//   doc_check --root DIR --examples --duels BIN   runs every ```console block, compares output;
//                                                 checks the options of `duels` lines in ```sh
//   doc_check ... --update                        rewrites the expected output of failing
//                                                 commands with what they printed
//   doc_check ... FILE.md …                       only these pages (default: all of them)
//
// A ```console block is a terminal session: a line starting with "$ " is a command (a line
// ending in "\" continues it), the lines up to the next command are what it prints (stdout and
// stderr together). In the expected output a line "…" stands for any number of lines and "[…]"
// for any text within a line. A command must exit 0 unless it ends with "# exit N". A fenced
// block whose info string has "file=NAME" (```yaml file=scene.yaml) is written to NAME first.
// Each page runs in its own empty temporary folder (with `assets` and `tests/data` linked from
// the repository), its blocks in order, with `duels` first on PATH and HOME, XDG_DATA_HOME and
// XDG_CONFIG_HOME inside the folder. Exit code 0 when everything holds, 1 when not, 2 for usage.
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string kAnyLines = "…";
const std::string kAnyText = "[…]";

struct Options {
  fs::path root;
  fs::path duels;
  bool links = false;
  bool examples = false;
  bool update = false;
  std::vector<fs::path> files;
};

int g_failures = 0;
fs::path g_root;

std::string shown(const fs::path& file) {
  const auto rel = fs::relative(file, g_root);
  return rel.empty() || rel.string().rfind("..", 0) == 0 ? file.string() : rel.string();
}

void fail(const fs::path& file, int line, const std::string& what) {
  ++g_failures;
  std::cerr << shown(file) << ":" << line << ": " << what << "\n";
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.pop_back();
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return rtrim(s.substr(b));
}

// ---- Markdown structure ----------------------------------------------------------------------

struct Fence {
  int open_line = 0;  // 1-based line of the opening fence
  std::string info;   // the info string ("console", "yaml file=x.yaml")
  std::vector<std::string> body;
  int first_body_line = 0;
};

struct Page {
  fs::path path;
  std::vector<std::string> lines;
  std::vector<Fence> fences;
  std::vector<bool> in_fence;  // per line (0-based): inside a fenced block, fences included
};

Page parse_page(const fs::path& path) {
  Page p;
  p.path = path;
  p.lines = split_lines(read_file(path));
  p.in_fence.assign(p.lines.size(), false);
  static const std::regex open(R"(^\s{0,3}(`{3,}|~{3,})\s*(.*)$)");
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(p.lines[i], m, open)) continue;
    const std::string marker = m[1];
    Fence f;
    f.open_line = static_cast<int>(i) + 1;
    f.info = trim(m[2]);
    f.first_body_line = static_cast<int>(i) + 2;
    p.in_fence[i] = true;
    std::size_t j = i + 1;
    for (; j < p.lines.size(); ++j) {
      p.in_fence[j] = true;
      const std::string t = trim(p.lines[j]);
      if (t.size() >= marker.size() && t.find_first_not_of(marker[0]) == std::string::npos) break;
      f.body.push_back(p.lines[j]);
    }
    p.fences.push_back(f);
    i = j;
  }
  return p;
}

// GitHub's heading anchors: lower case, punctuation and symbols dropped, spaces to '-'.
std::string slug(const std::string& heading) {
  std::string text = heading;
  // [text](link) → text
  text = std::regex_replace(text, std::regex(R"(\[([^\]]*)\]\([^)]*\))"), "$1");
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (std::isalnum(c) || c == '_' || c == '-') {
        out += static_cast<char>(std::tolower(c));
      } else if (c == ' ') {
        out += '-';
      }
      ++i;
      continue;
    }
    // One UTF-8 sequence: keep letters, drop punctuation and symbols (U+00A0–U+00BF, ×, ÷,
    // U+2000–U+2BFF: dashes, quotes, ellipsis, arrows, maths).
    const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    unsigned cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (int k = 1; k < len && i + k < text.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    const bool drop =
        (cp >= 0xA0 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x2BFF);
    if (!drop) out += text.substr(i, len);
    i += len;
  }
  return out;
}

std::set<std::string> anchors_of(const Page& p) {
  std::set<std::string> out;
  std::map<std::string, int> seen;
  static const std::regex heading(R"(^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$)");
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    if (p.in_fence[i]) continue;
    std::smatch m;
    if (!std::regex_match(p.lines[i], m, heading)) continue;
    const std::string s = slug(m[1]);
    const int n = seen[s]++;
    out.insert(n == 0 ? s : s + "-" + std::to_string(n));
  }
  // Explicit anchors: <a id="x"></a> or <a name="x">.
  static const std::regex html(R"re(<a\s+(?:id|name)="([^"]+)")re");
  for (const auto& l : p.lines) {
    for (std::sregex_iterator it(l.begin(), l.end(), html), end; it != end; ++it)
      out.insert((*it)[1]);
  }
  return out;
}

// Text of a line with inline code spans blanked out (links inside `code` are not links).
std::string without_code_spans(const std::string& line) {
  std::string out = line;
  std::size_t i = 0;
  while ((i = out.find('`', i)) != std::string::npos) {
    std::size_t n = 1;
    while (i + n < out.size() && out[i + n] == '`')
      ++n;
    const std::string tick(n, '`');
    const auto close = out.find(tick, i + n);
    if (close == std::string::npos) break;
    for (std::size_t k = i; k < close + n; ++k)
      out[k] = ' ';
    i = close + n;
  }
  return out;
}

// ---- Links -----------------------------------------------------------------------------------

void check_links(const Options& o, const std::vector<Page>& pages) {
  std::map<fs::path, std::set<std::string>> anchor_cache;
  auto anchors = [&](const fs::path& file) -> const std::set<std::string>& {
    auto it = anchor_cache.find(file);
    if (it == anchor_cache.end())
      it = anchor_cache.emplace(file, anchors_of(parse_page(file))).first;
    return it->second;
  };
  const fs::path root = fs::weakly_canonical(o.root);
  static const std::regex inline_link(R"(!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\))");
  static const std::regex ref_def(R"(^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s+.*)?$)");
  static const std::regex html_src(R"re((?:src|href)="([^"]+)")re");
  for (const auto& p : pages) {
    for (std::size_t i = 0; i < p.lines.size(); ++i) {
      if (p.in_fence[i]) continue;
      const std::string line = without_code_spans(p.lines[i]);
      std::vector<std::string> targets;
      for (std::sregex_iterator it(line.begin(), line.end(), inline_link), end; it != end; ++it)
        targets.push_back((*it)[1]);
      for (std::sregex_iterator it(line.begin(), line.end(), html_src), end; it != end; ++it)
        targets.push_back((*it)[1]);
      std::smatch m;
      if (std::regex_match(line, m, ref_def)) targets.push_back(m[1]);
      for (const auto& t : targets) {
        if (t.find("://") != std::string::npos || t.rfind("mailto:", 0) == 0) continue;
        const auto hash = t.find('#');
        const std::string path_part = t.substr(0, hash);
        const std::string anchor = hash == std::string::npos ? "" : t.substr(hash + 1);
        fs::path target = path_part.empty() ? p.path : p.path.parent_path() / path_part;
        target = fs::weakly_canonical(target);
        const auto rel = fs::relative(target, root).string();
        if (rel.rfind("..", 0) == 0) {
          fail(p.path, static_cast<int>(i) + 1,
               "link '" + t + "' leaves the repository (a clone has nothing there)");
          continue;
        }
        if (!fs::exists(target)) {
          fail(p.path, static_cast<int>(i) + 1, "dead link '" + t + "': no " + rel);
          continue;
        }
        if (!anchor.empty() && target.extension() == ".md" && !anchors(target).count(anchor)) {
          fail(p.path, static_cast<int>(i) + 1,
               "dead link '" + t + "': " + rel + " has no heading with the anchor #" + anchor);
        }
      }
    }
  }
}

// Every docs/….md path the program's sources name (help texts, messages, comments) exists.
void check_source_doc_paths(const Options& o) {
  static const std::regex doc_path(R"(docs/[A-Za-z0-9_./-]*\.md)");
  for (const char* dir :
       {"app", "overlay", "vision", "calib", "cards", "match", "duels", "common", "dice"}) {
    const fs::path d = o.root / dir;
    if (!fs::exists(d)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(d)) {
      const auto ext = e.path().extension();
      if (e.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const auto lines = split_lines(read_file(f));
      for (std::size_t i = 0; i < lines.size(); ++i) {
        for (std::sregex_iterator it(lines[i].begin(), lines[i].end(), doc_path), end; it != end;
             ++it) {
          if (!fs::exists(o.root / it->str()))
            fail(f, static_cast<int>(i) + 1, "names " + it->str() + ", which does not exist");
        }
      }
    }
  }
}

// ---- Examples --------------------------------------------------------------------------------

struct Run {
  int code = -1;
  std::string out;
};

Run run_shell(const fs::path& dir, const fs::path& script, const std::string& command) {
  {
    std::ofstream s(script);
    s << command << "\n";
  }
  const std::string cmd =
      "cd '" + dir.string() + "' && timeout 120 sh '" + script.string() + "' 2>&1 </dev/null";
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// One line against a pattern where "[…]" matches any text.
bool line_matches(const std::string& pattern, const std::string& line) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = pattern.find(kAnyText, from)) != std::string::npos;
       from = at + kAnyText.size())
    parts.push_back(pattern.substr(from, at - from));
  parts.push_back(pattern.substr(from));
  if (parts.size() == 1) return pattern == line;
  if (line.compare(0, parts.front().size(), parts.front()) != 0) return false;
  std::size_t pos = parts.front().size();
  for (std::size_t k = 1; k + 1 < parts.size(); ++k) {
    const auto at = line.find(parts[k], pos);
    if (at == std::string::npos) return false;
    pos = at + parts[k].size();
  }
  const std::string& last = parts.back();
  return line.size() >= pos + last.size() &&
         line.compare(line.size() - last.size(), last.size(), last) == 0;
}

bool lines_match(const std::vector<std::string>& want, std::size_t w,
                 const std::vector<std::string>& got, std::size_t g,
                 std::map<std::pair<std::size_t, std::size_t>, bool>& memo) {
  const auto key = std::make_pair(w, g);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  bool ok = false;
  if (w == want.size()) {
    ok = g == got.size();
  } else if (trim(want[w]) == kAnyLines || trim(want[w]) == "...") {
    for (std::size_t k = g; k <= got.size() && !ok; ++k)
      ok = lines_match(want, w + 1, got, k, memo);
  } else {
    ok = g < got.size() && line_matches(want[w], got[g]) &&
         lines_match(want, w + 1, got, g + 1, memo);
  }
  memo[key] = ok;
  return ok;
}

std::vector<std::string> normalise(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    out.push_back(rtrim(l));
  while (!out.empty() && out.back().empty())
    out.pop_back();
  return out;
}

struct Command {
  int line = 0;             // 1-based line of the "$ "
  std::string text;         // the shell command
  std::optional<int> exit;  // "# exit N"
  int expected_first = 0;   // 0-based line index of the first expected line
  std::vector<std::string> expected;
};

std::vector<Command> commands_of(const Fence& f) {
  std::vector<Command> out;
  static const std::regex exit_comment(R"(#\s*exit(?:\s+code)?\s+(\d+)\s*$)");
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    const std::string& l = f.body[i];
    if (l.rfind("$ ", 0) != 0 && l != "$") {
      if (out.empty()) continue;  // text before the first command: not checked
      out.back().expected.push_back(l);
      continue;
    }
    Command c;
    c.line = f.first_body_line + static_cast<int>(i);
    std::string text = l.size() > 2 ? l.substr(2) : "";
    while (!rtrim(text).empty() && rtrim(text).back() == '\\' && i + 1 < f.body.size()) {
      text = rtrim(text) + "\n" + f.body[++i];
    }
    std::smatch m;
    if (std::regex_search(text, m, exit_comment)) c.exit = std::stoi(m[1]);
    c.text = text;
    c.expected_first = f.first_body_line - 1 + static_cast<int>(i) + 1;
    out.push_back(c);
  }
  return out;
}

std::string indent(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines)
    s += "    | " + l + "\n";
  return s.empty() ? "    (nothing)\n" : s;
}

void run_examples(const Options& o, std::vector<Page>& pages) {
  const fs::path bin_dir = fs::absolute(o.duels).parent_path();
  const char* old_path = std::getenv("PATH");
  setenv("PATH", (bin_dir.string() + ":" + (old_path ? old_path : "/usr/bin:/bin")).c_str(), 1);
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  unsetenv("DUELS_ASSETS");
  setenv("TZ", "UTC", 1);
  setenv("COLUMNS", "100", 1);
  for (auto& p : pages) {
    bool any = false;
    for (const auto& f : p.fences)
      any = any || f.info.rfind("console", 0) == 0 || f.info.find("file=") != std::string::npos;
    if (!any) continue;
    char tmpl[] = "/tmp/duels-doc-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      fail(p.path, 1, "cannot make a temporary folder");
      continue;
    }
    const fs::path base = tmpl;
    const fs::path work = base / "work";
    fs::create_directories(work / "tests");
    fs::create_directories(base / "home");
    fs::create_directory_symlink(fs::absolute(o.root / "assets"), work / "assets");
    fs::create_directory_symlink(fs::absolute(o.root / "tests" / "data"), work / "tests" / "data");
    setenv("HOME", (base / "home").c_str(), 1);
    setenv("XDG_DATA_HOME", (base / "home/.local/share").c_str(), 1);
    setenv("XDG_CONFIG_HOME", (base / "home/.config").c_str(), 1);
    std::vector<std::pair<int, std::vector<std::string>>> replacements;  // for --update
    std::vector<int> replaced_counts;
    auto evaluate = [&](const Command& c, const Run& r) {
      const auto got = normalise(split_lines(r.out));
      const auto want = normalise(c.expected);
      std::map<std::pair<std::size_t, std::size_t>, bool> memo;
      const bool out_ok = lines_match(want, 0, got, 0, memo);
      const int want_code = c.exit.value_or(0);
      const bool code_ok = r.code == want_code;
      if (out_ok && code_ok) return;
      std::string msg = "$ " + c.text + "\n";
      if (!code_ok)
        msg += "  exit code " + std::to_string(r.code) + ", expected " + std::to_string(want_code) +
               (c.exit ? "" : " (add '# exit N' if meant)") + "\n";
      if (!out_ok) msg += "  expected:\n" + indent(want) + "  got:\n" + indent(got);
      fail(p.path, c.line, msg);
      if (o.update && !out_ok) {
        replacements.emplace_back(c.expected_first, got);
        replaced_counts.push_back(static_cast<int>(want.size()));
      }
    };
    // A page that says its commands do not depend on each other (commands.md: every --help)
    // runs them side by side.
    bool independent = false;
    for (const auto& l : p.lines)
      independent = independent || l.find("<!-- doc_check: independent commands -->") == 0;
    std::vector<Command> deferred;
    for (const auto& f : p.fences) {
      static const std::regex file_attr(R"((?:^|\s)file=(\S+))");
      std::smatch m;
      if (std::regex_search(f.info, m, file_attr)) {
        const fs::path target = work / std::string(m[1]);
        fs::create_directories(target.parent_path());
        std::ofstream out(target);
        for (const auto& l : f.body)
          out << l << "\n";
        continue;
      }
      if (f.info.rfind("console", 0) != 0) continue;
      for (const auto& c : commands_of(f)) {
        if (independent) {
          deferred.push_back(c);
        } else {
          evaluate(c, run_shell(work, base / "cmd.sh", c.text));
        }
      }
    }
    if (!deferred.empty()) {
      std::vector<Run> results(deferred.size());
      std::atomic<std::size_t> next{0};
      std::vector<std::thread> workers;
      const unsigned n = std::clamp(std::thread::hardware_concurrency(), 1U, 4U);
      for (unsigned t = 0; t < n; ++t) {
        workers.emplace_back([&] {
          for (std::size_t i; (i = next++) < deferred.size();)
            results[i] =
                run_shell(work, base / ("cmd" + std::to_string(i) + ".sh"), deferred[i].text);
        });
      }
      for (auto& w : workers)
        w.join();
      for (std::size_t i = 0; i < deferred.size(); ++i)
        evaluate(deferred[i], results[i]);
    }
    if (o.update && !replacements.empty()) {
      for (std::size_t k = replacements.size(); k-- > 0;) {
        const int at = replacements[k].first;
        const auto& got = replacements[k].second;
        p.lines.erase(p.lines.begin() + at, p.lines.begin() + at + replaced_counts[k]);
        p.lines.insert(p.lines.begin() + at, got.begin(), got.end());
      }
      std::ofstream out(p.path);
      for (const auto& l : p.lines)
        out << l << "\n";
      std::cerr << shown(p.path) << ": updated " << replacements.size() << " command(s)\n";
    }
    std::error_code ec;
    fs::remove_all(base, ec);
  }
}

// Commands shown but not run (```sh blocks): each `duels …` line names subcommands that exist
// and only options their --help lists, so a renamed option is caught even where the example
// cannot run (a webcam, a window).
void check_shown_commands(const Options& o, const std::vector<Page>& pages) {
  std::map<std::string, std::string> help_cache;
  auto help = [&](const std::string& path) -> const std::string& {
    auto it = help_cache.find(path);
    if (it == help_cache.end()) {
      const std::string cmd = "'" + o.duels.string() + "' " + path + " --help 2>&1";
      std::string out;
      if (FILE* pipe = popen(cmd.c_str(), "r")) {
        std::array<char, 4096> buf{};
        std::size_t n = 0;
        while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
          out.append(buf.data(), n);
        pclose(pipe);
      }
      it = help_cache.emplace(path, out).first;
    }
    return it->second;
  };
  auto subcommands = [&](const std::string& path) {
    std::set<std::string> out;
    bool in = false;
    for (const auto& l : split_lines(help(path))) {
      if (l.rfind("Subcommands:", 0) == 0) {
        in = true;
      } else if (in && l.size() > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ') {
        out.insert(l.substr(2, l.find(' ', 2) - 2));
      } else if (in && trim(l).empty()) {
        in = false;
      }
    }
    return out;
  };
  static const std::regex option(R"((?:^|\s)(--[a-z][a-z0-9-]*))");
  for (const auto& p : pages) {
    for (const auto& f : p.fences) {
      if (f.info != "sh" && f.info != "bash") continue;
      for (std::size_t i = 0; i < f.body.size(); ++i) {
        std::string line = trim(f.body[i]);
        const int at = f.first_body_line + static_cast<int>(i);
        while (!line.empty() && line.back() == '\\' && i + 1 < f.body.size())
          line = line.substr(0, line.size() - 1) + " " + trim(f.body[++i]);
        if (line.rfind("duels ", 0) != 0) continue;
        // Drop a trailing comment: " #" outside quotes.
        bool quoted = false;
        for (std::size_t k = 0; k < line.size(); ++k) {
          if (line[k] == '"') quoted = !quoted;
          if (!quoted && line[k] == '#' && k > 0 && line[k - 1] == ' ') {
            line = rtrim(line.substr(0, k));
            break;
          }
        }
        std::istringstream words(line.substr(6));
        std::string word;
        std::string path;
        std::vector<std::string> rest;
        bool in_path = true;
        while (words >> word) {
          if (in_path && subcommands(path).count(word)) {
            path += (path.empty() ? "" : " ") + word;
            continue;
          }
          in_path = false;
          rest.push_back(word);
        }
        if (path.empty()) {
          fail(p.path, at, "'" + line + "': no duels subcommand");
          continue;
        }
        const std::string& text = help(path);
        for (const auto& w : rest) {
          std::smatch m;
          if (!std::regex_search(w, m, option)) continue;
          const std::string opt = m[1];
          if (text.find(opt + " ") == std::string::npos &&
              text.find(opt + ",") == std::string::npos &&
              text.find(opt + "\n") == std::string::npos &&
              text.find("," + opt) == std::string::npos)
            fail(p.path, at, "'duels " + path + "' has no option " + opt + " (see its --help)");
        }
      }
    }
  }
}

int usage() {
  std::cerr << "usage: doc_check --root DIR [--links] [--examples --duels BIN] [--update] "
               "[FILE.md …]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--root" && i + 1 < argc) {
      o.root = argv[++i];
    } else if (a == "--duels" && i + 1 < argc) {
      o.duels = argv[++i];
    } else if (a == "--links") {
      o.links = true;
    } else if (a == "--examples") {
      o.examples = true;
    } else if (a == "--update") {
      o.update = true;
    } else if (a.rfind("--", 0) == 0) {
      return usage();
    } else {
      o.files.emplace_back(a);
    }
  }
  if (o.root.empty() || (!o.links && !o.examples) || (o.examples && o.duels.empty()))
    return usage();
  o.root = fs::weakly_canonical(fs::absolute(o.root));
  g_root = o.root;
  if (o.files.empty()) {
    if (fs::exists(o.root / "README.md")) o.files.push_back(o.root / "README.md");
    std::vector<fs::path> docs;
    if (fs::exists(o.root / "docs")) {
      for (const auto& e : fs::recursive_directory_iterator(o.root / "docs"))
        if (e.is_regular_file() && e.path().extension() == ".md") docs.push_back(e.path());
    }
    std::sort(docs.begin(), docs.end());
    o.files.insert(o.files.end(), docs.begin(), docs.end());
  }
  std::vector<Page> pages;
  for (const auto& f : o.files) {
    if (!fs::exists(f)) {
      std::cerr << f.string() << ": no such file\n";
      return 2;
    }
    pages.push_back(parse_page(fs::absolute(f)));
  }
  if (o.links) {
    check_links(o, pages);
    check_source_doc_paths(o);
  }
  if (o.examples) {
    check_shown_commands(o, pages);
    run_examples(o, pages);
  }
  std::size_t commands = 0;
  for (const auto& p : pages)
    for (const auto& f : p.fences)
      if (f.info.rfind("console", 0) == 0) commands += commands_of(f).size();
  std::cerr << (g_failures == 0 ? "ok: " : "FAILED: ") << pages.size() << " pages"
            << (o.examples ? ", " + std::to_string(commands) + " example commands" : "")
            << (g_failures ? ", " + std::to_string(g_failures) + " problem(s)" : "") << "\n";
  return g_failures == 0 ? 0 : 1;
}
