#include "go_asm.h"
#include "textflag.h"

// runLoopCalls runs a compiled loop's iterations (control_native_amd64.go).
// Generated code may clobber every register but SP and BP, so the state
// lives in this frame: 0(SP) the loopRun, 8(SP) the next loopCall, 16(SP)
// the calls left in this iteration.
//
// func runLoopCalls(run *loopRun)
TEXT ·runLoopCalls(SB), NOSPLIT, $32-8
	MOVQ run+0(FP), BX
	MOVQ BX, 0(SP)

iteration:
	MOVQ 0(SP), BX
	MOVQ loopRun_done(BX), CX
	CMPQ CX, loopRun_iters(BX)
	JAE  finished
	MOVQ loopRun_calls(BX), AX
	MOVQ AX, 8(SP)
	MOVQ loopRun_ncalls(BX), AX
	MOVQ AX, 16(SP)

call:
	CMPQ 16(SP), $0
	JEQ  bumps
	MOVQ 8(SP), BX
	MOVQ loopCall_kind(BX), AX
	MOVQ loopCall_args(BX), DI
	CMPQ AX, $1
	JEQ  count32
	CMPQ AX, $2
	JEQ  count64
	MOVQ loopCall_entry(BX), AX
	CALL AX
	MOVQ 8(SP), BX
	MOVQ loopCall_args(BX), DI
	CMPQ 16(DI), $0
	JNE  flagged

next:
	ADDQ $loopCall__size, 8(SP)
	DECQ 16(SP)
	JMP  call

count32:
	MOVQ 0(DI), SI
	MOVQ 8(DI), DX
	MOVL (SI), AX
	ADDL loopCall_add(BX), AX
	MOVL AX, (DX)
	JMP  next

count64:
	MOVQ 0(DI), SI
	MOVQ 8(DI), DX
	MOVQ (SI), AX
	ADDQ loopCall_add(BX), AX
	MOVQ AX, (DX)
	JMP  next

bumps:
	MOVQ 0(SP), BX
	MOVQ loopRun_bumps(BX), SI
	MOVQ loopRun_nbumps(BX), CX

bump:
	TESTQ CX, CX
	JEQ   bumped
	MOVQ  loopBump_word(SI), DI
	MOVQ  loopBump_delta(SI), AX
	ADDQ  AX, (DI)
	ADDQ  $loopBump__size, SI
	DECQ  CX
	JMP   bump

bumped:
	INCQ loopRun_done(BX)
	JMP  iteration

flagged:
	MOVQ 0(SP), BX
	MOVQ loopRun_ncalls(BX), AX
	SUBQ 16(SP), AX
	INCQ AX
	MOVQ AX, loopRun_flagged(BX)

finished:
	RET
