// The `duels` command: parses the command line and maps failures to exit codes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "app/command.hpp"
#include "common/error.hpp"
#include "common/json_words.hpp"

namespace duels::app {

namespace {
namespace fs = std::filesystem;

std::vector<std::pair<int, AddCommandFn>>& registry() {
  static std::vector<std::pair<int, AddCommandFn>> commands;
  return commands;
}
}  // namespace

bool register_command(int order, AddCommandFn add) {
  registry().emplace_back(order, add);
  return true;
}

namespace {
// Every option that takes a decimal number refuses NaN and the infinities: CLI11 reads "nan"
// as a number, and its range checks (NaN < min, NaN > max: both false) let it through.
void finite_numbers_only(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_name().find("FLOAT") == std::string::npos) continue;
    opt->check(CLI::Validator(
        [](std::string& value) -> std::string {
          char* end = nullptr;
          const double d = std::strtod(value.c_str(), &end);
          if (end != value.c_str() && !std::isfinite(d))
            return "a finite number was expected, not " + value;
          return {};
        },
        "", "finite"));
  }
  for (CLI::App* sub : app.get_subcommands({}))
    finite_numbers_only(*sub);
}
}  // namespace

void add_registered_commands(CLI::App& root) {
  auto commands = registry();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, add] : commands)
    add(root);
  finite_numbers_only(root);
}

std::string assets_dir() {
  if (const char* env = std::getenv("DUELS_ASSETS"); env != nullptr && *env != '\0') return env;
  // Installed: PREFIX/bin/duels with its assets in PREFIX/share/duels-companion.
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / "share" / "duels-companion";
    if (fs::is_directory(installed / "figures", ec)) return installed.string();
  }
  // A build-tree run: the source tree's assets.
  return DUELS_ASSETS_DIR;
}

std::string user_data_dir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/')
    return (fs::path(xdg) / "duels-companion").string();
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr ? home : ".") / ".local" / "share" / "duels-companion").string();
}

AssetLibrary load_library() {
  return load_asset_libraries({assets_dir(), user_data_dir()});
}

}  // namespace duels::app

int main(int argc, char** argv) {
  using namespace duels::app;
  CLI::App app{"Duels Companion — a table companion for Shadowrun Duels", "duels"};
  app.set_version_flag("--version", std::string("duels ") + DUELS_VERSION);
  app.require_subcommand(1);
  add_registered_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  } catch (const UsageError& e) {
    std::cerr << "duels: " << e.what() << "\n";
    return kUsage;
  } catch (const duels::DataException& e) {
    std::cerr << "duels: " << e.what() << "\n";
    return kInvalid;
  } catch (const IllegalAction& e) {
    std::cerr << "duels: not allowed: " << e.what() << "\n";
    return kInvalid;
  } catch (const std::filesystem::filesystem_error& e) {
    // A file or folder the program could not read or write: named, with the reason.
    const std::string where = e.path1().empty() ? std::string("<file>") : e.path1().string();
    std::cerr << "duels: " << where << ": a usable file or folder (" << e.code().message() << ")\n";
    return kInvalid;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "duels: data of the wrong shape or type (" << duels::plain_json_error(e) << ")\n";
    return kInvalid;
  } catch (const std::bad_alloc&) {
    std::cerr << "duels: out of memory (the input is too large)\n";
    return kInvalid;
  } catch (const Unavailable& e) {
    std::cerr << "duels: cannot run here: " << e.what() << "\n";
    return kInvalid;
  } catch (const std::exception& e) {
    // Whatever else stopped the command (a failed UI script, an internal check): its message,
    // and the same exit code as any other failure that is not a usage mistake.
    std::cerr << "duels: error: " << e.what() << "\n";
    return kInvalid;
  } catch (...) {
    std::cerr << "duels: error: an unexpected failure (please report it: see 'Reporting a bug' in "
                 "the README)\n";
    return kInvalid;
  }
  return kOk;
}
