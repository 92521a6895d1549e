; The device code of examples/reschedule/block_reduce.cu as tcgen reschedule --emit=llvm
; writes it (clang-22 -O1 -Xclang -disable-llvm-passes, then the cleanup
; pass list): the input of the lit tests that do not run clang.
; ModuleID = 'examples/reschedule/block_reduce.cu'
source_filename = "examples/reschedule/block_reduce.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ11blockReducePfPKfE7partial = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z11blockReducePfPKf(ptr noundef %0, ptr noundef %1) #0 {
  %3 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = mul i32 %4, 512
  %6 = add nsw i32 %5, %3
  %7 = sext i32 %6 to i64
  %8 = getelementptr inbounds float, ptr %1, i64 %7
  %9 = load float, ptr %8, align 4, !tbaa !11
  %10 = add nsw i32 %5, 256
  %11 = add nsw i32 %10, %3
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds float, ptr %1, i64 %12
  %14 = load float, ptr %13, align 4, !tbaa !11
  %15 = fadd contract float %9, %14
  %16 = sext i32 %3 to i64
  %17 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11blockReducePfPKfE7partial to ptr), i64 0, i64 %16
  store float %15, ptr %17, align 4, !tbaa !11
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %18

18:                                               ; preds = %29, %2
  %.0 = phi i32 [ 128, %2 ], [ %30, %29 ]
  %19 = icmp sgt i32 %.0, 0
  br i1 %19, label %20, label %31

20:                                               ; preds = %18
  %21 = icmp slt i32 %3, %.0
  br i1 %21, label %22, label %29

22:                                               ; preds = %20
  %23 = add nsw i32 %3, %.0
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11blockReducePfPKfE7partial to ptr), i64 0, i64 %24
  %26 = load float, ptr %25, align 4, !tbaa !11
  %27 = load float, ptr %17, align 4, !tbaa !11
  %28 = fadd contract float %27, %26
  store float %28, ptr %17, align 4, !tbaa !11
  br label %29

29:                                               ; preds = %22, %20
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %30 = ashr i32 %.0, 1
  br label %18, !llvm.loop !13

31:                                               ; preds = %18
  %32 = icmp eq i32 %3, 0
  br i1 %32, label %33, label %37

33:                                               ; preds = %31
  %34 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ11blockReducePfPKfE7partial to ptr), align 4, !tbaa !11
  %35 = zext i32 %4 to i64
  %36 = getelementptr inbounds nuw float, ptr %0, i64 %35
  store float %34, ptr %36, align 4, !tbaa !11
  br label %37

37:                                               ; preds = %33, %31
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
