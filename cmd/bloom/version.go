package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/simdbloom/bloom/internal/cpu"
)

// versionInfo is what "bloom version" prints.
type versionInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`            // "(devel)" when built from a checkout
	Revision string `json:"revision,omitempty"` // the VCS commit, when the build recorded it
	Modified bool   `json:"modified,omitempty"` // the checkout had uncommitted changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
	Kernel   string `json:"kernel"` // the kernel level in use (SIMDBLOOM_CPU may lower it)
	Detected string `json:"detected"`
}

func runVersion(args []string, stdout, _ io.Writer) error {
	fs := newFlags("version", "bloom version: the module version and Go version of this binary, and the kernel level in use.")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	v := buildVersion()
	if *asJSON {
		return writeJSON(stdout, v)
	}
	fmt.Fprintf(stdout, "%s %s", v.Module, v.Version)
	if v.Revision != "" {
		fmt.Fprintf(stdout, " (commit %s", v.Revision)
		if v.Modified {
			fmt.Fprint(stdout, ", modified")
		}
		fmt.Fprint(stdout, ")")
	}
	fmt.Fprintf(stdout, "\n%s %s\nkernel in use: %s (detected: %s)\n", v.Go, v.Platform, v.Kernel, v.Detected)
	return nil
}

// buildVersion reads the version from the build information. A binary built
// inside the module's checkout has no module version: it says "(devel)".
func buildVersion() versionInfo {
	v := versionInfo{Module: "github.com/simdbloom/bloom", Version: "(devel)", Go: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, Kernel: cpu.Active.String(), Detected: cpu.Detected.String()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	var mod *debug.Module
	if bi.Main.Path == v.Module {
		mod = &bi.Main
	}
	for _, d := range bi.Deps { // built inside another module
		if d.Path == v.Module {
			mod = d
			if d.Replace != nil {
				mod = d.Replace
			}
		}
	}
	if mod != nil && mod.Version != "" {
		v.Version = mod.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}
