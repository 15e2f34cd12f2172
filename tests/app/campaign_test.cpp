// The hostile campaign of issue #52, measured: kills, full disks, two writers, damaged journals
// and bad input, each tried many times against the real `duels` binary, counting crashes, hangs,
// raw library text, events lost and matches silently dropped. Every count must be 0.
//
// CI runs a slice (DUELS_CAMPAIGN_SCALE unset: 1); `DUELS_CAMPAIGN_SCALE=30` is the run whose
// table docs/reliability.md shows. Each test prints its row.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "reliability_support.hpp"

namespace {

using namespace duels_reliability;

int scale() {
  const char* s = std::getenv("DUELS_CAMPAIGN_SCALE");
  const int v = s != nullptr ? std::atoi(s) : 1;
  return v < 1 ? 1 : v;
}

// What one category found.
struct Tally {
  int trials = 0;
  int crashes = 0;  // killed by a signal of its own (SIGSEGV, SIGABRT, …)
  int hangs = 0;    // still running after the time limit
  int raw = 0;      // library text reached the player
  int lost = 0;     // events the player saw done, missing afterwards
  int dropped = 0;  // a match neither listed nor named as unreadable
  void print(const char* what) const {
    std::printf(
        "campaign | %s | %d | %d crashes | %d hangs | %d raw | %d events lost | %d "
        "silently dropped\n",
        what, trials, crashes, hangs, raw, lost, dropped);
    EXPECT_EQ(crashes + hangs + raw + lost + dropped, 0) << what;
  }
};

bool raw_text(const std::string& out) {
  for (const char* s :
       {"json.exception", "terminate called", "what():", "std::", "basic_string", "cv::Exception",
        "OpenCV(", "YAML::", "Assertion", "AddressSanitizer", "runtime error:"}) {
    if (out.find(s) != std::string::npos) return true;
  }
  return false;
}

// Runs a command under `timeout` and counts what went wrong into `t`.
Outcome checked(Tally& t, const std::string& env, const std::string& args) {
  const Outcome r = shell(env + " timeout -s KILL 120 " + duels_test::binary() + " " + args);
  if (r.code == 137) {
    ++t.hangs;
    ADD_FAILURE() << "hang: " << args;
  } else if (r.signal != 0 || r.code < 0) {
    ++t.crashes;
    ADD_FAILURE() << "crash (" << r.signal << "): " << args << "\n" << r.out;
  }
  if (raw_text(r.out)) {
    ++t.raw;
    ADD_FAILURE() << "raw text: " << args << "\n" << r.out;
  }
  return r;
}

// Events in a journal as the program reads it (`match show --json`), or -1 when it cannot.
long long events_in(Tally& t, const std::string& env, const std::string& journal) {
  const Outcome r = checked(t, env, "match show " + journal + " --json 2>/dev/null");
  if (r.code != 0) return -1;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_object() && j.contains("event") ? j["event"].get<long long>() : -1;
}

// Starts `duels ARGS` with stdout to `out`; returns its pid.
pid_t spawn(const std::string& env_home, const std::vector<std::string>& args,
            const std::string& out) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("XDG_DATA_HOME", env_home.c_str(), 1);
    std::FILE* f = std::freopen(out.c_str(), "w", stdout);
    (void)f;
    std::vector<char*> argv;
    const std::string bin = duels_test::binary();
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (const auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// The event lines autoplay printed (indented; its closing summary line is not an event).
int event_lines_in(const std::string& file) {
  const std::string text = slurp(file);
  int n = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;  // a line cut by the kill was not shown whole
    n += text.compare(at, 2, "  ") == 0 ? 1 : 0;
    at = nl + 1;
  }
  return n;
}

// SIGKILL at a random moment of a long autoplayed match; the journal must replay every event
// whose line was printed (printing follows the sync), and the match must go on from it.
TEST(Campaign, Kills) {
  Sandbox box("campaign_kills");
  std::mt19937 rng(52);
  Tally t;
  const int n = 10 * scale();
  for (int k = 0; k < n; ++k) {
    const std::string j = box.file("k" + std::to_string(k) + ".jsonl");
    const std::string out = box.file("out.txt");
    const pid_t pid = spawn(box.dir.string() + "/data",
                            {"match", "autoplay", "--teams", "Street Team,Arcane Team", "--seed",
                             std::to_string(k), "--journal", j},
                            out);
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(5, 400)(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ++t.trials;
    if (!fs::exists(j)) continue;  // killed before the journal was made: nothing was shown
    const int printed = event_lines_in(out);
    const Outcome shown = checked(t, box.env, "match show " + j + " --json 2>/dev/null");
    ASSERT_EQ(shown.code, 0) << shown.out;
    const auto js = nlohmann::json::parse(shown.out, nullptr, false);
    const long long logged = js.is_object() ? static_cast<long long>(js["log"].size()) : -1;
    if (logged < printed) {
      t.lost += static_cast<int>(printed - logged);
      ADD_FAILURE() << j << ": " << printed << " lines printed, " << logged << " in the journal";
    }
    // It goes on from there (a torn last line is kept in FILE.torn and cut).
    const Outcome more =
        checked(t, box.env,
                "match autoplay --teams 'Street Team,Arcane Team' --seed " + std::to_string(k) +
                    " --quiet --max-commands 3 --journal " + j);
    EXPECT_EQ(more.code, 0) << more.out;
  }
  t.print("SIGKILL during an autoplayed match");
}

// A full disk after a random number of bytes, for a journal append, a report and a printout.
TEST(Campaign, FullDisks) {
  Sandbox box("campaign_disk");
  std::mt19937 rng(7);
  Tally t;
  const std::string j = autoplayed(box, "m.jsonl", 30);
  const std::string rep = box.file("report");
  ASSERT_EQ(run(box.env, "match report " + j + " --out " + rep).code, 0);
  ASSERT_EQ(run(box.env, "print board --out " + box.file("b.pdf")).code, 0);
  const int n = 6 * scale();
  for (int k = 0; k < n; ++k) {
    const std::string budget = "DUELS_FAULT_WRITE_BUDGET=" +
                               std::to_string(std::uniform_int_distribution<int>(0, 6000)(rng));
    const long long before = events_in(t, box.env, j);
    const Outcome r = checked(t, budget + " " + box.env,
                              "match autoplay --figures Razor,Bulldozer --seed 4 --quiet "
                              "--max-commands " +
                                  std::to_string(before + 40) + " --journal " + j);
    const long long after = events_in(t, box.env, j);
    ++t.trials;
    if (after < before) {
      t.lost += static_cast<int>(before - after);
      ADD_FAILURE() << "events lost on a full disk: " << before << " then " << after;
    }
    EXPECT_TRUE(r.code == 0 || r.code == 3) << r.out;
    EXPECT_FALSE(fs::exists(j + ".torn")) << "a torn line was left by a full disk";
    // The report and the printout: the old files whole, or the new ones whole.
    const std::string old_md = slurp(rep + "/report.md");
    const Outcome rr = checked(t, budget + " " + box.env, "match report " + j + " --out " + rep);
    ++t.trials;
    if (rr.code != 0) {
      EXPECT_EQ(slurp(rep + "/report.md"), old_md);
    }
    const std::string old_pdf = slurp(box.file("b.pdf"));
    const Outcome pr = checked(t, budget + " " + box.env, "print board --out " + box.file("b.pdf"));
    ++t.trials;
    if (pr.code != 0) {
      EXPECT_EQ(slurp(box.file("b.pdf")), old_pdf);
    }
    EXPECT_TRUE(pr.code == 0 || pr.code == 3) << pr.out;
  }
  t.print("full disk (journal append, report, printout)");
}

// A second writer while a console holds the journal: refused by name, and the journal is whole.
TEST(Campaign, TwoWriters) {
  Sandbox box("campaign_writers");
  Tally t;
  std::signal(SIGPIPE, SIG_IGN);
  spit(box.file("s.txt"), "auto 5\n");
  const std::vector<std::string> second{
      "match undo ", "match repair ", "match play --script " + box.file("s.txt") + " ",
      "match autoplay --figures Razor,Bulldozer --seed 3 --max-commands 99 --journal "};
  const int n = 8 * scale();
  int refused = 0;
  for (int k = 0; k < n; ++k) {
    const std::string j = box.file("w" + std::to_string(k) + ".jsonl");
    ASSERT_EQ(run(box.env,
                  "match autoplay --figures Razor,Bulldozer --seed 3 --quiet "
                  "--max-commands 10 --journal " +
                      j)
                  .code,
              0);
    // The first writer: a console waiting for its player.
    FILE* first = ::popen(
        (box.env + " " + duels_test::binary() + " match resume " + j + " >/dev/null 2>&1").c_str(),
        "w");
    ASSERT_NE(first, nullptr);
    ASSERT_TRUE(wait_for_flock(j)) << "the first writer never took the lock";
    const Outcome r = checked(t, box.env, second[static_cast<std::size_t>(k) % second.size()] + j);
    ++t.trials;
    if (r.code == 3 && has(r.out, "open for writing by pid") && has(r.out, "match resume"))
      ++refused;
    else
      ADD_FAILURE() << r.out;
    std::fputs("auto 3\n", first);
    ::pclose(first);
    // Whole: 10 events, then the console's 3; nothing of the refused writer.
    const long long ev = events_in(t, box.env, j);
    if (ev < 13) {
      t.lost += static_cast<int>(13 - ev);
      ADD_FAILURE() << j << ": " << ev << " events";
    }
  }
  EXPECT_EQ(refused, n) << "every second writer is refused while the first holds the journal";
  t.print("a second writer on a journal in use");
}

// Damage of many kinds at random places: every reader answers in words; repair keeps exactly
// the events before the damage; `match list` names a journal it cannot read.
TEST(Campaign, DamagedJournals) {
  Sandbox box("campaign_damage");
  std::mt19937 rng(11);
  Tally t;
  const fs::path matches = box.dir / "data" / "duels-companion" / "matches";
  fs::create_directories(matches);
  const std::string ref = autoplayed(box, "ref.jsonl", 60);
  const std::string other = autoplayed(box, "other.jsonl", 60);
  const std::string whole = slurp(ref);
  const std::string foreign = slurp(other);
  auto line_starts = [](const std::string& s) {
    std::vector<std::size_t> at{0};
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
      if (s[i] == '\n') at.push_back(i + 1);
    return at;
  };
  const auto starts = line_starts(whole);
  const auto fstarts = line_starts(foreign);
  const int kinds = 10;
  const int n = 2 * scale();
  for (int k = 0; k < n * kinds; ++k) {
    std::string text = whole;
    const std::size_t pos = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
    const std::size_t line = std::uniform_int_distribution<std::size_t>(1, starts.size() - 2)(rng);
    const std::size_t ls = starts[line];
    const std::size_t le = starts[line + 1];
    switch (k % kinds) {
      case 0:
        text[pos] = static_cast<char>(text[pos] ^ 0x01);
        break;  // one bit
      case 1:
        text.resize(pos);
        break;  // cut anywhere
      case 2:
        text.erase(ls, le - ls);
        break;  // a line gone
      case 3:
        text.insert(ls, whole.substr(ls, le - ls));
        break;  // a line twice
      case 4:   // the same line of another match (same number, its own valid checksum)
        text = text.substr(0, ls) +
               foreign.substr(fstarts[line], fstarts[line + 1] - fstarts[line]) + text.substr(le);
        break;
      case 5:
        text.insert(ls, std::string(100000, '[') + "\n");
        break;  // nested too deep
      case 6:
        text.insert(pos, "\xff\xfe\xc0");
        break;  // not UTF-8
      case 7:
        std::fill(text.begin() + static_cast<long>(pos),
                  text.begin() + static_cast<long>(std::min(text.size(), pos + 512)), '\0');
        break;
      case 8:  // the header of another match
        text = foreign.substr(0, fstarts[1]) + text.substr(starts[1]);
        break;
      case 9:
        text += "garbage that is not a line\n";
        break;
    }
    const std::string j = (matches / ("d" + std::to_string(k) + ".jsonl")).string();
    spit(j, text);
    ++t.trials;
    const Outcome show = checked(t, box.env, "match show " + j + " --json 2>/dev/null");
    EXPECT_TRUE(show.code == 0 || show.code == 3) << show.out;
    long long kept = -1;
    if (show.code == 0) {
      const auto js = nlohmann::json::parse(show.out, nullptr, false);
      if (js.is_object()) kept = js["event"].get<long long>();
    }
    // Listed, or named as unreadable: never silently gone.
    const Outcome list = checked(t, box.env, "match list");
    if (!has(list.out, j)) {
      ++t.dropped;
      ADD_FAILURE() << j << " is neither listed nor named\n" << list.out;
    }
    (void)checked(t, box.env, "stats");
    const Outcome rep = checked(t, box.env, "match repair " + j);
    if (kept >= 0 && rep.code == 0) {
      const long long after = events_in(t, box.env, j);
      if (after != kept) {
        t.lost += static_cast<int>(std::max(0LL, kept - after));
        ADD_FAILURE() << j << ": " << kept << " events readable before repair, " << after
                      << " after";
      }
    }
    fs::remove(j);
    for (const auto& e : fs::directory_iterator(matches))
      fs::remove(e.path());
  }
  t.print("damaged journals (10 kinds at random places)");
}

// Hostile command lines and files: exit 2 or 3 in words, never a crash, a hang or library text.
TEST(Campaign, BadInputs) {
  Sandbox box("campaign_input");
  Tally t;
  const std::string j = autoplayed(box, "m.jsonl", 12);
  spit(box.file("deep.yaml"), std::string(5000, '[') + "\n");
  spit(box.file("utf.yaml"), "schema_version: 1\nfigures:\n  - name: \"\xff\xfe\"\n");
  spit(box.file("png.png"), "\x89PNG\r\n\x1a\nnot really");
  ASSERT_EQ(::mkfifo(box.file("fifo.yaml").c_str(), 0644), 0);
  const std::vector<std::string> numbers{
      "nan",         "inf",           "-inf",   "-1",  "0",  "1e308", "-1e308", "2147483648",
      "-2147483649", "9999999999999", "1e-320", "abc", "''", "0x10",  "--"};
  const std::vector<std::string> templates{
      "resolve --weapon {} --body 5 --attack white:d6=3",
      "resolve --weapon 5 --body {} --attack white:d6=3",
      "odds --weapon {} --body 5 --attack white:d6",
      "advise --gap {}",
      "table path --move {}",
      "print board --cols {} --out " + box.file("o.pdf"),
      "print bases --diameter {} --out " + box.file("o.pdf"),
      "srtcg solo reequip --in-play {} --card 2",
      "srtcg tournament score --rep {} --runners 5 --nuyen 5",
      "srtcg tournament tiebreak --nuyen {}",
      "match autoplay --figures Razor,Bulldozer --seed 1 --max-commands {} --journal " +
          box.file("x.jsonl"),
      "roll {}d6",
      // A seed, not --games: 100,000,000 games is a long wait a player asked for, not a hang.
      "sim --figures Razor,Bulldozer --games 3 --seed {}",
  };
  // Each scale step adds numbers drawn at random from the shapes that broke parsers before.
  std::vector<std::string> values = numbers;
  std::mt19937 rng(13);
  for (int k = 0; k < 6 * (scale() - 1); ++k) {
    std::uniform_int_distribution<int> e(-330, 330);
    std::uniform_int_distribution<long long> i(-5000000000LL, 5000000000LL);
    values.push_back(k % 2 == 0 ? std::to_string(i(rng)) : fmt::format("1e{}", e(rng)));
  }
  for (const auto& tpl : templates) {
    for (const auto& v : values) {
      std::string args = tpl;
      args.replace(args.find("{}"), 2, v);
      const Outcome r = checked(t, box.env, args);
      ++t.trials;
      // Either answered, or refused in words with exit 2 or 3.
      EXPECT_TRUE(r.code == 0 || r.code == 2 || r.code == 3) << args << "\n" << r.out;
      fs::remove(box.file("x.jsonl"));
    }
  }
  for (const std::string& args : std::vector<std::string>{
           "figure check " + box.file("deep.yaml"), "figure check " + box.file("utf.yaml"),
           "figure check " + box.file("fifo.yaml"), "figure check /dev/zero",
           "figure check " + box.dir.string(), "detect --image " + box.file("png.png"),
           "detect --image " + box.file("fifo.yaml"), "match show " + box.file("fifo.yaml"),
           "match show /dev/zero", "match repair " + box.file("fifo.yaml"),
           "match show " + box.dir.string(), "match report " + j + " --out /dev/null",
           "match report " + j + " --out " + box.file("fifo.yaml"),
           "match play " + j + " --script " + box.dir.string()}) {
    const Outcome r = checked(t, box.env, args);
    ++t.trials;
    EXPECT_TRUE(r.code == 2 || r.code == 3) << args << "\n" << r.out;
  }
  t.print("bad command lines and files");
}

}  // namespace
