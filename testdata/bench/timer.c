/* mr-timer: runs one command again and again and records, per run, where its time went.
 * Used by make bench for the load tests, where hyperfine cannot run several loops at once.
 *
 *   mr-timer -o OUT.tsv [-n RUNS] [-d SECONDS] [-i INTERVAL_MS] [-e ERRFILE] [-s STDIN] -- command args...
 *
 * Each line of OUT.tsv: wall_us cpu_us runq_us sleep_us exit_status
 *   wall_us   fork to exit, on the monotonic clock
 *   cpu_us    time on a CPU (user + system), from the kernel's scheduler statistics
 *   runq_us   time runnable but waiting for a CPU (another process had it)
 *   sleep_us  the rest: blocked (a lock, a sleep, I/O such as fsync)
 * The child's scheduler statistics are read from /proc/<pid>/schedstat after it exits and
 * before it is reaped (waitid WNOWAIT). stdout goes to /dev/null, stderr to ERRFILE (appended)
 * or /dev/null; stdin is STDIN (opened afresh for each run) or the timer's own. Stops after RUNS runs or SECONDS seconds, whichever comes first. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int usage(void)
{
  fputs("usage: mr-timer -o OUT.tsv [-n RUNS] [-d SECONDS] [-i INTERVAL_MS] [-e ERRFILE] [-s STDIN] -- cmd...\n",
        stderr);
  return 2;
}

int main(int argc, char** argv)
{
  const char* out_path = NULL;
  const char* err_path = "/dev/null";
  const char* stdin_path = NULL;
  long runs = 1000000000L;
  double seconds = 1e9;
  double interval_ms = 0;
  int opt;
  while ((opt = getopt(argc, argv, "o:n:d:i:e:s:")) != -1) {
    switch (opt) {
    case 'o': out_path = optarg; break;
    case 'n': runs = atol(optarg); break;
    case 'd': seconds = atof(optarg); break;
    case 'i': interval_ms = atof(optarg); break;
    case 'e': err_path = optarg; break;
    case 's': stdin_path = optarg; break;
    default: return usage();
    }
  }
  if (out_path == NULL || optind >= argc) {
    return usage();
  }
  FILE* out = fopen(out_path, "w");
  if (out == NULL) {
    perror(out_path);
    return 2;
  }
  const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int errfd = open(err_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (devnull < 0 || errfd < 0) {
    perror("open");
    return 2;
  }
  const long long deadline = now_ns() + (long long)(seconds * 1e9);
  for (long run = 0; run < runs && now_ns() < deadline; ++run) {
    const long long start = now_ns();
    const pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 2;
    }
    if (pid == 0) {
      if (stdin_path != NULL) {
        const int in = open(stdin_path, O_RDONLY);
        if (in < 0 || dup2(in, STDIN_FILENO) < 0) {
          _exit(126);
        }
      }
      dup2(devnull, STDOUT_FILENO);
      dup2(errfd, STDERR_FILENO);
      execvp(argv[optind], argv + optind);
      _exit(127);
    }
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    const long long end = now_ns();
    long long cpu_ns = 0;
    long long runq_ns = 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    FILE* sched = fopen(path, "r");
    if (sched != NULL) {
      if (fscanf(sched, "%lld %lld", &cpu_ns, &runq_ns) != 2) {
        cpu_ns = runq_ns = 0;
      }
      fclose(sched);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const long long wall_ns = end - start;
    long long sleep_ns = wall_ns - cpu_ns - runq_ns;
    if (sleep_ns < 0) {
      sleep_ns = 0;
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(out, "%lld\t%lld\t%lld\t%lld\t%d\n", wall_ns / 1000, cpu_ns / 1000, runq_ns / 1000,
            sleep_ns / 1000, code);
    if (interval_ms > 0) {
      const long long next = start + (long long)(interval_ms * 1e6);
      const long long wait = next - now_ns();
      if (wait > 0) {
        struct timespec ts = {(time_t)(wait / 1000000000LL), (long)(wait % 1000000000LL)};
        nanosleep(&ts, NULL);
      }
    }
  }
  fclose(out);
  return 0;
}
