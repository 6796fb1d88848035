#include "go_asm.h"
#include "textflag.h"

// runLoopCalls runs a compiled loop's iterations (control_native_amd64.go).
// Generated code may clobber every register but SP and BP, so the state
// lives in this frame: 0(SP) the loopRun, 8(SP) the next loopCall, 16(SP)
// the calls left in this phase, 24(SP) the phase (0: the condition, 1: the
// body), 32(SP) the next call's index.
//
// func runLoopCalls(run *loopRun)
TEXT ·runLoopCalls(SB), NOSPLIT, $48-8
	MOVQ run+0(FP), BX
	MOVQ BX, 0(SP)

iteration:
	MOVQ 0(SP), BX
	MOVQ loopRun_done(BX), CX
	CMPQ CX, loopRun_iters(BX)
	JAE  finished
	MOVQ loopRun_calls(BX), AX
	MOVQ AX, 8(SP)
	MOVQ loopRun_ncond(BX), AX
	MOVQ AX, 16(SP)
	MOVQ $0, 24(SP)
	MOVQ $0, 32(SP)

call:
	CMPQ 16(SP), $0
	JEQ  phaseEnd
	MOVQ 8(SP), BX
	MOVQ loopCall_kind(BX), AX
	MOVQ loopCall_args(BX), DI
	CMPQ AX, $const_callCode
	JNE  notCode
	MOVQ loopCall_entry(BX), AX
	CALL AX
	MOVQ 8(SP), BX
	MOVQ loopCall_args(BX), DI
	CMPQ (const_argFlag*8)(DI), $0
	JNE  flagged

next:
	ADDQ $loopCall__size, 8(SP)
	DECQ 16(SP)
	INCQ 32(SP)
	JMP  call

notCode:
	CMPQ AX, $const_callCount32
	JEQ  count32
	CMPQ AX, $const_callCount64
	JEQ  count64
	CMPQ AX, $const_callCopy
	JEQ  copy
	MOVQ 0(DI), SI
	MOVQ 8(DI), DX
	MOVQ loopCall_sub(BX), AX
	CMPQ AX, $const_compareSigned32
	JEQ  signed32
	CMPQ AX, $const_compareSigned64
	JEQ  signed64
	CMPQ AX, $const_compareUnsigned32
	JEQ  unsigned32
	CMPQ AX, $const_compareUnsigned64
	JEQ  unsigned64
	CMPQ AX, $const_compareFloat32
	JEQ  float32

	MOVSD   (SI), X0
	MOVSD   (DX), X1
	UCOMISD X1, X0
	JMP     floatOutcome

float32:
	MOVSS   (SI), X0
	MOVSS   (DX), X1
	UCOMISS X1, X0

floatOutcome:
	JPS unordered
	JCS less
	JHI greater
	JMP equal

signed32:
	MOVLQSX (SI), AX
	MOVLQSX (DX), CX
	JMP     signed

signed64:
	MOVQ (SI), AX
	MOVQ (DX), CX

signed:
	CMPQ AX, CX
	JLT  less
	JGT  greater
	JMP  equal

unsigned32:
	MOVL (SI), AX
	MOVL (DX), CX
	JMP  unsigned

unsigned64:
	MOVQ (SI), AX
	MOVQ (DX), CX

unsigned:
	CMPQ AX, CX
	JCS  less
	JHI  greater

equal:
	MOVQ $const_outcomeEqual, AX
	JMP  outcome

less:
	MOVQ $const_outcomeLess, AX
	JMP  outcome

greater:
	MOVQ $const_outcomeGreater, AX
	JMP  outcome

unordered:
	MOVQ $const_outcomeUnordered, AX

outcome:
	MOVQ  16(DI), DX
	ANDQ  loopCall_add(BX), AX
	SETNE (DX)
	JMP   next

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

copy:
	MOVQ 0(DI), SI
	MOVQ 16(DI), CX
	MOVQ 8(DI), DI
	REP; MOVSB
	JMP  next

phaseEnd:
	MOVQ 0(SP), BX
	CMPQ 24(SP), $0
	JNE  bumps
	MOVQ $1, 24(SP)
	MOVQ loopRun_pred(BX), SI
	TESTQ SI, SI
	JEQ  body
	CMPB (SI), $0
	JNE  body
	MOVQ $1, loopRun_ended(BX)
	JMP  finished

body:
	MOVQ loopRun_ncalls(BX), AX
	SUBQ loopRun_ncond(BX), AX
	MOVQ AX, 16(SP)
	JMP  call

bumps:
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
	MOVQ 32(SP), AX
	INCQ AX
	MOVQ AX, loopRun_flagged(BX)

finished:
	RET
