package sbredis

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// server is a redis-server this test started, on a loopback port, in a
// directory of its own; t.Cleanup stops it by its PID.
type server struct {
	t    testing.TB
	port int
	dir  string
	args []string
	cmd  *exec.Cmd
}

// needRedis fails the test (never skips it) without redis-server.
func needRedis(t testing.TB, bins ...string) {
	for _, b := range append([]string{"redis-server"}, bins...) {
		if _, err := exec.LookPath(b); err != nil {
			t.Fatalf("%s not found (%v): these tests run real servers; install them with: apt-get install redis-server redis-tools", b, err)
		}
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServer starts a redis-server with the extra configuration args
// ("--name value" pairs) and waits until it answers.
func startServer(t testing.TB, args ...string) *server {
	needRedis(t)
	s := &server{t: t, port: freePort(t), dir: t.TempDir(), args: args}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *server) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

func (s *server) start() {
	args := append([]string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--daemonize", "no", "--protected-mode", "no", "--logfile", "redis.log"}, s.args...)
	s.cmd = exec.Command("redis-server", args...)
	s.cmd.Dir = s.dir
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: s.addr(), MaxRetries: -1})
	defer c.Close()
	for i := 0; ; i++ {
		err := c.Ping(context.Background()).Err()
		if err == nil {
			return
		}
		if i == 500 {
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			s.t.Fatalf("redis-server on %s did not answer: %v\n%s", s.addr(), err, log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// kill9 kills the server with SIGKILL (by its PID) and reaps it.
func (s *server) kill9() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

func (s *server) stop() { s.kill9() }

// client returns a client of s closed at the end of the test.
func (s *server) client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.addr()})
	t.Cleanup(func() { c.Close() })
	return c
}

// startCluster starts three masters and joins them into a Redis Cluster
// with redis-cli --cluster create.
func startCluster(t testing.TB) []*server { return startClusterReplicas(t, 0) }

// startClusterReplicas starts a cluster of three masters with replicas
// replicas each.
func startClusterReplicas(t testing.TB, replicas int) []*server {
	needRedis(t, "redis-cli")
	var ss []*server
	var addrs []string
	for range 3 * (1 + replicas) {
		s := startServer(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")
		ss = append(ss, s)
		addrs = append(addrs, s.addr())
	}
	out, err := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	ctx := context.Background()
	for _, s := range ss {
		c := s.client(t)
		for i := 0; ; i++ {
			info, err := c.ClusterInfo(ctx).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if i == 1000 {
				t.Fatalf("cluster not ok on %s: %v %s", s.addr(), err, info)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return ss
}

func clusterClient(t testing.TB, ss []*server) *redis.ClusterClient {
	var addrs []string
	for _, s := range ss {
		addrs = append(addrs, s.addr())
	}
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { c.Close() })
	return c
}

var nameSeq int

// uniqueName returns a filter name no other test uses.
func uniqueName(t testing.TB) string {
	nameSeq++
	return fmt.Sprintf("%s-%d", strings.NewReplacer("/", "-", "{", "", "}", "").Replace(t.Name()), nameSeq)
}
