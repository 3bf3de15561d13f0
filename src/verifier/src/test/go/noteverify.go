// Command noteverify checks a signed note against one verifier key with golang.org/x/mod/sumdb/note,
// an implementation of C2SP signed notes written independently of Quaestor's. The verifier's tests
// use it to show that Quaestor's checkpoints verify elsewhere too.
//
//	noteverify VKEY NOTE-FILE
//
// It prints the note's text and exits 0 if the note carries a valid signature by that key; otherwise it
// says why and exits 1. Exit 2: wrong arguments or an unreadable file.
package main

import (
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/note"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: noteverify VKEY NOTE-FILE")
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "not a verifier key:", err)
		os.Exit(2)
	}
	msg, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		fmt.Fprintln(os.Stderr, "not verified:", err)
		os.Exit(1)
	}
	fmt.Print(n.Text)
}
